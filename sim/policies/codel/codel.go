package codel

import (
	"fmt"
	"math"
	"time"
)

// phase says where in the RFC's dequeue routine (RFC 8289 section 5.5) the
// next call to Dequeue or Empty falls.
type phase uint8

const (
	// start: a new call of dequeue; the request is the one its first
	// dodequeue returns.
	start phase = iota
	// inDropLoop: inside the "while (now >= drop_next_ && dropping_)"
	// loop, right after drop(r.p); ++count_; the request is the one the
	// loop's dodequeue returns.
	inDropLoop
	// afterEntry: right after entering the dropping state, which drops one
	// request and dequeues the next; that next one is delivered.
	afterEntry
)

// CoDel is the per-queue state of RFC 8289 (section 5.2). The zero value is
// not usable; call New.
type CoDel struct {
	cfg Config

	// RFC 8289 section 5.2 per-queue state.
	firstAboveTime time.Duration // time when we'll declare we're above target
	above          bool          // firstAboveTime is set (the RFC's first_above_time != 0)
	dropNext       time.Duration // time to drop the next request
	count          uint32        // requests dropped since entering the dropping state
	lastCount      uint32        // count when the dropping state was last entered
	dropping       bool          // in the dropping state

	ph phase
}

// New returns a CoDel in the initial state, or an error if cfg is invalid.
func New(cfg Config) (*CoDel, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("codel.New: %w", err)
	}
	return &CoDel{cfg: cfg}, nil
}

// controlLaw is RFC 8289 section 5.6 control_law: t + interval/sqrt(count).
func (c *CoDel) controlLaw(t time.Duration, count uint32) time.Duration {
	return t + time.Duration(float64(c.cfg.Interval)/math.Sqrt(float64(count)))
}

// okToDrop is the sojourn-time part of RFC 8289 section 5.6 dodequeue for a
// dequeued request: it updates first_above_time and reports ok_to_drop.
func (c *CoDel) okToDrop(now, sojourn time.Duration, backlog int) bool {
	if sojourn < c.cfg.Target || backlog <= c.cfg.MaxPacket {
		// Went below: stay below for at least Interval.
		c.above = false
		return false
	}
	if !c.above {
		// Just went above from below. If still above at first_above_time,
		// it will be ok to drop.
		c.firstAboveTime = now + c.cfg.Interval
		c.above = true
		return false
	}
	return now >= c.firstAboveTime
}

// Dequeue decides the fate of a request just removed from the head of the
// queue at now. enqueuedAt is when it joined the queue, and backlog is the
// number of requests left in the queue behind it. After Drop, the caller
// must remove the next request and call Dequeue again at the same now (or
// Empty if the queue is empty); after Deliver the dequeue is over. now
// must not decrease between calls.
func (c *CoDel) Dequeue(now, enqueuedAt time.Duration, backlog int) Verdict {
	ok := c.okToDrop(now, now-enqueuedAt, backlog)
	switch c.ph {
	case afterEntry:
		// Section 5.5: after entering the dropping state, r = dodequeue(now)
		// and r.p is returned whatever ok_to_drop says.
		c.ph = start
		return Deliver
	case inDropLoop:
		// Section 5.5, inside the drop loop, after r = dodequeue(now).
		if !ok {
			c.dropping = false // leave the dropping state
		} else {
			c.dropNext = c.controlLaw(c.dropNext, c.count)
		}
		return c.dropLoop(now)
	}
	// Section 5.5, a new dequeue: r = dodequeue(now).
	if c.dropping {
		if !ok {
			// Sojourn time below Target: leave the dropping state.
			c.dropping = false
		}
		return c.dropLoop(now)
	}
	if !ok {
		return Deliver
	}
	// Not dropping, and the sojourn time has been above Target for
	// Interval: enter the dropping state and drop this request.
	c.dropping = true
	// Re-entry rule (section 5.5): if the queue went back above Target
	// soon after the last dropping episode, the drop rate that controlled
	// it then is a good starting point. drop_next is at most Interval
	// after the last drop, so now - drop_next approximates the time since.
	delta := c.count - c.lastCount
	c.count = 1
	if delta > 1 && now-c.dropNext < 16*c.cfg.Interval {
		c.count = delta
	}
	c.dropNext = c.controlLaw(now, c.count)
	c.lastCount = c.count
	c.ph = afterEntry
	return Drop
}

// dropLoop is the head of the section 5.5 loop
// "while (now >= drop_next_ && dropping_) { drop(r.p); ++count_; ... }".
func (c *CoDel) dropLoop(now time.Duration) Verdict {
	if c.dropping && now >= c.dropNext {
		c.count++
		c.ph = inDropLoop
		return Drop
	}
	c.ph = start
	return Deliver
}

// Empty tells CoDel that the queue was empty at now: either a dequeue found
// nothing, or the requests after a Drop ran out. The sojourn time cannot be
// above Target (RFC 8289 section 5.6), and the dropping state ends unless
// it was entered during this very dequeue (section 5.5 leaves it set then).
func (c *CoDel) Empty(now time.Duration) {
	c.above = false
	if c.ph != afterEntry {
		c.dropping = false
	}
	c.ph = start
}

// Dropping reports whether CoDel is in the dropping state.
func (c *CoDel) Dropping() bool { return c.dropping }

// Count returns the RFC's count: the drops since the dropping state was
// last entered (or the count it re-entered with).
func (c *CoDel) Count() uint32 { return c.count }

// DropNext returns the instant of the next drop while Dropping; it is
// meaningless otherwise.
func (c *CoDel) DropNext() time.Duration { return c.dropNext }

// FirstAboveTime returns the instant from which the sojourn time, if still
// above Target, allows a drop, and whether it is set (the sojourn time of
// the last dequeued request was at or above Target).
func (c *CoDel) FirstAboveTime() (time.Duration, bool) { return c.firstAboveTime, c.above }

package wall

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"
)

// manualEpoch returns the time.Time of instant 0 of every ManualClock:
// 2000-01-01 00:00:00 UTC (a function, so that no package state can change).
func manualEpoch() time.Time { return time.Date(2000, time.January, 1, 0, 0, 0, 0, time.UTC) }

// ManualClock is a Clock for tests, whose instant 0 is the time
// 2000-01-01 00:00:00 UTC: its time moves only through Set and
// Advance, which run the timers that fall due, in order of their instants
// (ties in order of creation), in the calling goroutine. A test drives a
// Caller running in another goroutine by waiting for it to arm a timer
// (WaitTimers) and then advancing the clock, so that it never sleeps.
// It is safe for concurrent use.
type ManualClock struct {
	mu     sync.Mutex
	cond   sync.Cond // signalled when a timer is armed
	now    time.Duration
	seq    uint64
	timers []*manualTimer
}

type manualTimer struct {
	at  time.Duration
	seq uint64
	f   func()
}

// NewManualClock returns a ManualClock reading start.
func NewManualClock(start time.Duration) *ManualClock {
	c := &ManualClock{now: start}
	c.cond.L = &c.mu
	return c
}

// Now returns the clock's instant.
func (c *ManualClock) Now() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Time returns 2000-01-01 00:00:00 UTC + at.
func (c *ManualClock) Time(at time.Duration) time.Time { return manualEpoch().Add(at) }

// Instant returns t - 2000-01-01 00:00:00 UTC.
func (c *ManualClock) Instant(t time.Time) time.Duration { return t.Sub(manualEpoch()) }

// Advance moves the clock forward by d (d >= 0) and runs the timers that
// fall due.
func (c *ManualClock) Advance(d time.Duration) {
	if d < 0 {
		panic(fmt.Sprintf("wall: ManualClock.Advance(%v): time cannot go backwards", d))
	}
	c.mu.Lock()
	at := c.now + d
	c.mu.Unlock()
	c.Set(at)
}

// Set moves the clock to instant at, which must not be earlier than Now, and
// runs the timers that fall due, one by one: each timer sees Now equal to its
// own instant, and the clock reads at when Set returns.
func (c *ManualClock) Set(at time.Duration) {
	for {
		c.mu.Lock()
		if at < c.now {
			now := c.now
			c.mu.Unlock()
			panic(fmt.Sprintf("wall: ManualClock.Set(%v) before Now %v: time cannot go backwards", at, now))
		}
		i := c.nextDue(at)
		if i < 0 {
			c.now = at
			c.mu.Unlock()
			return
		}
		t := c.timers[i]
		c.timers = slices.Delete(c.timers, i, i+1)
		c.now = t.at
		c.mu.Unlock()
		t.f()
	}
}

// nextDue returns the index of the earliest timer due at or before at, or -1.
func (c *ManualClock) nextDue(at time.Duration) int {
	best := -1
	for i, t := range c.timers {
		if t.at > at {
			continue
		}
		if best < 0 || cmp.Or(cmp.Compare(t.at, c.timers[best].at), cmp.Compare(t.seq, c.timers[best].seq)) < 0 {
			best = i
		}
	}
	return best
}

// AfterFunc arms a timer that runs f when the clock reaches Now + d; with
// d <= 0, f runs at once, in the calling goroutine.
func (c *ManualClock) AfterFunc(d time.Duration, f func()) func() bool {
	if d <= 0 {
		f()
		return func() bool { return false }
	}
	c.mu.Lock()
	c.seq++
	t := &manualTimer{at: c.now + d, seq: c.seq, f: f}
	c.timers = append(c.timers, t)
	c.cond.Broadcast()
	c.mu.Unlock()
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		if i := slices.Index(c.timers, t); i >= 0 {
			c.timers = slices.Delete(c.timers, i, i+1)
			return true
		}
		return false
	}
}

// Timers returns the number of armed timers.
func (c *ManualClock) Timers() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}

// NextTimer returns the instant of the earliest armed timer; ok is false if
// none is armed.
func (c *ManualClock) NextTimer() (at time.Duration, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if i := c.nextDue(1<<63 - 1); i >= 0 {
		return c.timers[i].at, true
	}
	return 0, false
}

// WaitTimers blocks until at least n timers are armed: the way a test knows
// that the code under test has started waiting.
func (c *ManualClock) WaitTimers(n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.timers) < n {
		c.cond.Wait()
	}
}

// WithDeadline returns a context that is cancelled with Err
// context.DeadlineExceeded when the clock reaches at (or when parent is
// done), and whose Deadline reports Time(at).
func (c *ManualClock) WithDeadline(parent context.Context, at time.Duration) (context.Context, context.CancelFunc) {
	inner, cancel := context.WithCancelCause(parent)
	if pd, ok := parent.Deadline(); ok && c.Instant(pd) <= at {
		// The parent expires first; its timer cancels this one too.
		return &manualCtx{Context: inner, deadline: pd}, func() { cancel(context.Canceled) }
	}
	ctx := &manualCtx{Context: inner, deadline: c.Time(at)}
	stop := c.AfterFunc(at-c.Now(), func() { cancel(context.DeadlineExceeded) })
	return ctx, func() {
		stop()
		cancel(context.Canceled)
	}
}

// manualCtx is a cancel context that reports a deadline and, once cancelled
// by its timer, the error context.DeadlineExceeded.
type manualCtx struct {
	context.Context
	deadline time.Time
}

func (m *manualCtx) Deadline() (time.Time, bool) { return m.deadline, true }

func (m *manualCtx) Err() error {
	err := m.Context.Err()
	if err != nil && context.Cause(m.Context) == context.DeadlineExceeded {
		return context.DeadlineExceeded
	}
	return err
}

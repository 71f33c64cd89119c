package lifo

import (
	"time"
)

// Result is the answer of AdaptiveQueue.Next.
type Result uint8

const (
	// Empty: the queue is empty; the returned Entry is the zero value.
	Empty Result = iota
	// Deliver: serve the returned entry.
	Deliver
	// Expired: the returned entry's deadline has passed; drop it (count it
	// as shed) and call Next again.
	Expired
)

// String returns "empty", "deliver" or "expired".
func (r Result) String() string {
	switch r {
	case Empty:
		return "empty"
	case Deliver:
		return "deliver"
	case Expired:
		return "expired"
	}
	return "unknown"
}

// Stats counts what an AdaptiveQueue did.
type Stats struct {
	// Pushed counts requests admitted to the queue.
	Pushed uint64
	// Full counts requests refused because the queue was full.
	Full uint64
	// Expired counts requests dropped because their deadline passed.
	Expired uint64
	// DeliveredFIFO and DeliveredLIFO count requests served in each mode.
	DeliveredFIFO, DeliveredLIFO uint64
}

// AdaptiveQueue is a bounded request queue served FIFO or LIFO as its
// Policy decides, with queue timeouts. The zero value is not usable; call
// NewAdaptiveQueue.
type AdaptiveQueue[T any] struct {
	q     *Queue[T]
	p     *Policy
	stats Stats
}

// NewAdaptiveQueue returns an empty queue of the given capacity, or an
// error wrapping ErrInvalidConfig if capacity < 1 or cfg is invalid.
func NewAdaptiveQueue[T any](capacity int, cfg Config) (*AdaptiveQueue[T], error) {
	q, err := NewQueue[T](capacity)
	if err != nil {
		return nil, err
	}
	p, err := NewPolicy(cfg)
	if err != nil {
		return nil, err
	}
	return &AdaptiveQueue[T]{q: q, p: p}, nil
}

// Push queues v at now. deadline is the latest instant it may still be
// served (its propagated deadline; pass a large value for none); with
// ControlledDelay the queue timeout (M or N) may bring it earlier. Push
// reports false when the queue is full: reject the request explicitly.
func (a *AdaptiveQueue[T]) Push(now time.Duration, v T, deadline time.Duration) bool {
	if a.q.Len() == a.q.Cap() {
		a.stats.Full++
		return false
	}
	timeout := a.p.Timeout(now, a.q.Len())
	if a.p.cfg.ControlledDelay {
		deadline = min(deadline, now+timeout)
	}
	a.q.PushBack(Entry[T]{Value: v, EnqueuedAt: now, Deadline: deadline})
	a.stats.Pushed++
	return true
}

// Next returns the request to serve at now. Expired entries at the old end
// come out first, as Expired; then, in the current Mode, the oldest (FIFO)
// or newest (LIFO) entry, as Deliver, or as Expired if its deadline has
// passed. After Expired, drop the entry and call Next again.
func (a *AdaptiveQueue[T]) Next(now time.Duration) (Entry[T], Result) {
	if e, ok := a.q.PopExpired(now); ok {
		a.stats.Expired++
		a.p.observe(now, a.q.Len())
		return e, Expired
	}
	if a.q.Len() == 0 {
		a.p.observe(now, 0)
		return Entry[T]{}, Empty
	}
	mode := a.p.Mode(now, a.q.Len())
	var e Entry[T]
	if mode == LIFO {
		e, _ = a.q.PopBack()
	} else {
		e, _ = a.q.PopFront()
	}
	a.p.observe(now, a.q.Len())
	if e.Expired(now) {
		a.stats.Expired++
		return e, Expired
	}
	if mode == LIFO {
		a.stats.DeliveredLIFO++
	} else {
		a.stats.DeliveredFIFO++
	}
	return e, Deliver
}

// Len returns the number of queued requests.
func (a *AdaptiveQueue[T]) Len() int { return a.q.Len() }

// Cap returns the capacity.
func (a *AdaptiveQueue[T]) Cap() int { return a.q.Cap() }

// Mode returns the mode Next would serve in at now.
func (a *AdaptiveQueue[T]) Mode(now time.Duration) Mode { return a.p.Mode(now, a.q.Len()) }

// Stats returns the counters.
func (a *AdaptiveQueue[T]) Stats() Stats { return a.stats }

// Queue returns the underlying queue, for inspection (do not push or pop
// on it directly).
func (a *AdaptiveQueue[T]) Queue() *Queue[T] { return a.q }

package bulkhead

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

// Semaphore is a bulkhead whose callers wait for a slot on their own
// worker, for at most MaxWaitDuration. Create it with NewSemaphore. It is
// not safe for concurrent use.
type Semaphore struct {
	cfg SemaphoreConfig
	g   gate
}

// NewSemaphore returns an empty semaphore bulkhead, or an error wrapping
// ErrInvalidConfig.
func NewSemaphore(cfg SemaphoreConfig) (*Semaphore, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("bulkhead.NewSemaphore: %w", err)
	}
	return &Semaphore{cfg: cfg, g: gate{limit: cfg.MaxConcurrentCalls, q: newWaitQueue(cfg.MaxConcurrentCalls)}}, nil
}

// Config returns the semaphore's configuration.
func (s *Semaphore) Config() SemaphoreConfig { return s.cfg }

// Acquire asks for a slot at instant now for a caller whose deadline is
// deadline (NoDeadline if none). A free slot is Granted at once unless older
// waiters are queued; otherwise the caller is Queued until
// min(now+MaxWaitDuration, deadline) if MaxWaitDuration > 0, or refused as
// Full. A deadline at or before now is refused as DeadlineExceeded.
func (s *Semaphore) Acquire(now, deadline time.Duration) Acquisition {
	until := deadline
	if w := s.cfg.MaxWaitDuration; now <= NoDeadline-w {
		until = min(until, now+w)
	}
	return s.g.acquire(now, deadline, s.cfg.MaxWaitDuration > 0, until)
}

// Release frees the caller's slot at instant now. If a waiter is live
// (now < its WaitUntil), the slot goes to the oldest one and Release returns
// its Grant; the caller wakes that waiter. Release without a slot in use is
// a no-op returning false.
func (s *Semaphore) Release(now time.Duration) (Grant, bool) { return s.g.release(now) }

// Expire ends the wait of ticket t at instant now (the caller scheduled it
// for WaitUntil) and reports the outcome to fail the waiter with:
// policies.DeadlineExceeded if its deadline has passed, else
// policies.BulkheadFull. It reports false if t was already granted, expired
// or cancelled.
func (s *Semaphore) Expire(now time.Duration, t Ticket) (policies.Outcome, bool) {
	return s.g.expire(now, t)
}

// Cancel removes ticket t because its caller gave up. It reports false if t
// was already granted, expired or cancelled.
func (s *Semaphore) Cancel(t Ticket) bool { return s.g.cancel(t) }

// InUse returns the number of slots held.
func (s *Semaphore) InUse() int { return s.g.inUse }

// Waiting returns the number of queued waiters not yet granted, expired,
// cancelled or skipped as lapsed.
func (s *Semaphore) Waiting() int { return s.g.q.waiting }

// Stats returns the semaphore's counters.
func (s *Semaphore) Stats() Stats { return s.g.stats }

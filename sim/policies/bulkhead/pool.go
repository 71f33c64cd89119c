package bulkhead

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

// Pool is a bulkhead with a dedicated set of MaxThreadPoolSize workers fed
// by a queue of at most QueueCapacity calls, in the style of a Hystrix
// thread pool: the wait is bounded in length, not in time, and a queued
// call is dropped when its caller's deadline passes. Create it with
// NewPool. It is not safe for concurrent use.
type Pool struct {
	cfg PoolConfig
	g   gate
}

// NewPool returns an idle pool, or an error wrapping ErrInvalidConfig.
func NewPool(cfg PoolConfig) (*Pool, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("bulkhead.NewPool: %w", err)
	}
	return &Pool{cfg: cfg, g: gate{limit: cfg.MaxThreadPoolSize, q: newWaitQueue(cfg.QueueCapacity)}}, nil
}

// Config returns the pool's configuration.
func (p *Pool) Config() PoolConfig { return p.cfg }

// Acquire submits a call at instant now whose caller's deadline is deadline
// (NoDeadline if none). An idle worker takes it at once (Granted) unless
// older calls are queued; otherwise it is Queued with WaitUntil = deadline
// if fewer than QueueCapacity calls wait, or refused as Full. A deadline at
// or before now is refused as DeadlineExceeded.
func (p *Pool) Acquire(now, deadline time.Duration) Acquisition {
	return p.g.acquire(now, deadline, p.g.q.waiting < p.cfg.QueueCapacity, deadline)
}

// Release reports at instant now that a worker finished its call. The
// worker takes the oldest queued call whose deadline has not passed and
// Release returns its Grant; otherwise the worker goes idle. Release with
// no busy worker is a no-op returning false.
func (p *Pool) Release(now time.Duration) (Grant, bool) { return p.g.release(now) }

// Expire drops queued call t at instant now, when its deadline has passed
// (the caller scheduled it for WaitUntil); it reports
// policies.DeadlineExceeded, or policies.BulkheadFull if called before the
// deadline. It reports false if t was already taken by a worker, expired
// or cancelled.
func (p *Pool) Expire(now time.Duration, t Ticket) (policies.Outcome, bool) {
	return p.g.expire(now, t)
}

// Cancel drops queued call t because its caller gave up. It reports false
// if t was already taken by a worker, expired or cancelled.
func (p *Pool) Cancel(t Ticket) bool { return p.g.cancel(t) }

// InUse returns the number of busy workers.
func (p *Pool) InUse() int { return p.g.inUse }

// Waiting returns the number of queued calls not yet taken, expired,
// cancelled or skipped as lapsed.
func (p *Pool) Waiting() int { return p.g.q.waiting }

// Stats returns the pool's counters.
func (p *Pool) Stats() Stats { return p.g.stats }

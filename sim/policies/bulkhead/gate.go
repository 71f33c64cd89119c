package bulkhead

import (
	"time"

	"github.com/ressim/ressim/sim/policies"
)

// gate is the machinery Semaphore and Pool share: slots and a wait queue.
type gate struct {
	limit int
	inUse int
	q     waitQueue
	stats Stats
}

func (g *gate) acquire(now, deadline time.Duration, canWait bool, until time.Duration) Acquisition {
	if deadline <= now {
		g.stats.DeadlineExceeded++
		return Acquisition{Decision: DeadlineExceeded}
	}
	if g.inUse < g.limit && g.q.waiting == 0 {
		g.inUse++
		g.stats.Granted++
		return Acquisition{Decision: Granted}
	}
	if !canWait || until <= now {
		g.stats.Full++
		return Acquisition{Decision: Full}
	}
	t := g.q.push(waiter{enqueued: now, until: until, deadline: deadline})
	g.stats.Queued++
	return Acquisition{Decision: Queued, Ticket: t, WaitUntil: until}
}

func (g *gate) release(now time.Duration) (Grant, bool) {
	if g.inUse == 0 {
		return Grant{}, false
	}
	if t, w, ok := g.q.popLive(now); ok {
		g.stats.Handed++
		return Grant{Ticket: t, Waited: now - w.enqueued}, true
	}
	g.inUse--
	return Grant{}, false
}

func (g *gate) expire(now time.Duration, t Ticket) (policies.Outcome, bool) {
	w, ok := g.q.remove(t)
	if !ok {
		return 0, false
	}
	g.stats.Expired++
	if now >= w.deadline {
		return policies.DeadlineExceeded, true
	}
	return policies.BulkheadFull, true
}

func (g *gate) cancel(t Ticket) bool {
	_, ok := g.q.remove(t)
	if ok {
		g.stats.Cancelled++
	}
	return ok
}

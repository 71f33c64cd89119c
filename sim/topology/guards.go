package topology

import (
	"time"

	"github.com/ressim/ressim/sim/dist"
	"github.com/ressim/ressim/sim/engine"
	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/breaker"
	"github.com/ressim/ressim/sim/policies/budget"
	"github.com/ressim/ressim/sim/policies/bulkhead"
	"github.com/ressim/ressim/sim/policies/fallback"
)

// slotGate is a bulkhead of either flavour.
type slotGate interface {
	Acquire(now, deadline time.Duration) bulkhead.Acquisition
	Release(now time.Duration) (bulkhead.Grant, bool)
	Expire(now time.Duration, t bulkhead.Ticket) (policies.Outcome, bool)
	Cancel(t bulkhead.Ticket) bool
	InUse() int
}

// siteGuards are a call site's resilience policies, as running state.
type siteGuards struct {
	bulkhead      slotGate
	waiting       map[bulkhead.Ticket]*call // calls waiting for a slot
	breaker       *breaker.Breaker
	breakerInside bool
	budget        *budget.Bucket
	retryConc     *budget.Concurrency
	inflight      int  // calls in flight through the site, for retryConc
	killed        bool // a kill switch is on: the fallback answers
	fallback      *FallbackConfig
	fallbackLat   dist.Dist
	fallbackLevel fallback.Level
}

func (g *siteGuards) build(c CallGuards) error {
	var err error
	switch {
	case c.Bulkhead != nil:
		sem, err := bulkhead.NewSemaphore(*c.Bulkhead)
		if err != nil {
			return err
		}
		g.bulkhead = sem
	case c.BulkheadPool != nil:
		pool, err := bulkhead.NewPool(*c.BulkheadPool)
		if err != nil {
			return err
		}
		g.bulkhead = pool
	}
	if g.bulkhead != nil {
		g.waiting = map[bulkhead.Ticket]*call{}
	}
	if c.RetryConcurrency != nil {
		if g.retryConc, err = budget.NewConcurrency(*c.RetryConcurrency); err != nil {
			return err
		}
	}
	if c.Breaker != nil {
		if g.breaker, err = breaker.New(*c.Breaker); err != nil {
			return err
		}
		g.breakerInside = c.BreakerInsideRetry
	}
	if c.Budget != nil {
		if g.budget, err = budget.New(*c.Budget); err != nil {
			return err
		}
	}
	if f := c.Fallback; f != nil {
		g.fallback = f
		g.fallbackLat = f.Latency
		g.fallbackLevel = f.Level
	}
	return nil
}

// enterBulkhead takes a slot for c, waits for one, or refuses the call.
// A killed feature answers from its fallback without calling at all.
func (m *Model) enterBulkhead(now engine.Time, c *call) {
	g := &c.site.guards
	g.inflight++
	if g.killed {
		c.site.st.inc(m, now, sKilled)
		m.failLater(now, c, policies.Cancelled, stKilled)
		return
	}
	if g.bulkhead == nil {
		m.enterBreaker(now, c)
		return
	}
	dl := bulkhead.NoDeadline
	if c.hasDL {
		dl = c.deadline.Duration()
	}
	acq := g.bulkhead.Acquire(now.Duration(), dl)
	switch acq.Decision {
	case bulkhead.Granted:
		c.holdsSlot = true
		m.enterBreaker(now, c)
	case bulkhead.Queued:
		c.ticket, c.waitingSlot = acq.Ticket, true
		g.waiting[acq.Ticket] = c
		if acq.WaitUntil != bulkhead.NoDeadline {
			c.waitEv, _ = m.sim.At(engine.Time(acq.WaitUntil), &m.hSlotWait, c)
		}
	default:
		c.site.st.inc(m, now, sBulkheadFull)
		m.failLater(now, c, policies.BulkheadFull, stBulkheadFull)
	}
}

// slotWaitExpired: a call waited its bounded time for a slot in vain.
func (m *Model) slotWaitExpired(now engine.Time, c *call) {
	g := &c.site.guards
	c.waitEv, c.waitingSlot = 0, false
	delete(g.waiting, c.ticket)
	o, ok := g.bulkhead.Expire(now.Duration(), c.ticket)
	if !ok {
		o = policies.BulkheadFull
	}
	c.site.st.inc(m, now, sBulkheadFull)
	st := stBulkheadFull
	if o == policies.DeadlineExceeded {
		st = stDropped
	}
	m.afterFailure(now, c, o, st)
}

// releaseSlot gives the site's bulkhead slot back; the oldest waiter gets
// it, after a recheck of its deadline.
func (m *Model) releaseSlot(now engine.Time, site *callSite) {
	g := &site.guards
	grant, ok := g.bulkhead.Release(now.Duration())
	if !ok {
		return
	}
	w := g.waiting[grant.Ticket]
	delete(g.waiting, grant.Ticket)
	if w == nil {
		g.bulkhead.Release(now.Duration()) // nobody to give it to
		return
	}
	m.sim.Cancel(w.waitEv)
	w.waitEv, w.waitingSlot = 0, false
	w.holdsSlot = true
	if w.hasDL && now >= w.deadline {
		m.failLater(now, w, policies.DeadlineExceeded, stDropped)
		return
	}
	m.sending++
	m.enterBreaker(now, w)
	m.sending--
}

// enterBreaker asks the breaker (when it guards the whole call) and
// dispatches the call.
func (m *Model) enterBreaker(now engine.Time, c *call) {
	g := &c.site.guards
	if g.breaker != nil && !g.breakerInside {
		p, ok := g.breaker.Allow(now.Duration())
		if !ok {
			c.site.st.inc(m, now, sShortCircuited)
			m.failLater(now, c, policies.CircuitOpen, stCircuitOpen)
			return
		}
		c.permit, c.hasPermit = p, true
	}
	m.dispatch(now, c)
}

// failLater reports a refusal by an event, so that the call's owner is
// never notified from inside its own startCall.
func (m *Model) failLater(now engine.Time, c *call, o policies.Outcome, st status) {
	c.failO, c.failSt = o, st
	c.retryEv, _ = m.sim.After(0, &m.hFail, c)
}

// breakerRecord feeds an outcome to a site's breaker and counts trips.
func (m *Model) breakerRecord(now engine.Time, site *callSite, p breaker.Permit, o policies.Outcome, lat time.Duration) {
	tr, ok := site.guards.breaker.Record(now.Duration(), p, o, lat)
	if ok && tr.To == breaker.Open {
		site.st.inc(m, now, sBreakerOpened)
	}
}

// attemptOutcome feeds one attempt's outcome, as the caller saw it, to the
// policies that learn per attempt: the retry budget, a breaker inside the
// retry loop, the callee's outlier detector.
func (m *Model) attemptOutcome(now engine.Time, a *attempt, o policies.Outcome) {
	site := a.site
	g := &site.guards
	if o == policies.Success && g.budget != nil {
		g.budget.RecordSuccess(now.Duration())
	}
	if g.breaker != nil && g.breakerInside {
		m.breakerRecord(now, site, a.permit, o, now.Sub(a.sent))
	}
	if a.inst != nil && site.target.outlier != nil {
		site.target.outlierRecord(now, a.inst, o)
	}
	if c := a.call; c != nil {
		c.retryAfter = a.retryAfter
	}
}

type (
	failHandler     struct{ m *Model }
	fallbackHandler struct{ m *Model }
	slotWaitHandler struct{ m *Model }
)

func (h *failHandler) Handle(now engine.Time, arg any) {
	c := arg.(*call)
	c.retryEv = 0
	h.m.afterFailure(now, c, c.failO, c.failSt)
}

func (h *fallbackHandler) Handle(now engine.Time, arg any) {
	c := arg.(*call)
	c.retryEv = 0
	h.m.notifyOwner(now, c, stDegraded)
}

func (h *slotWaitHandler) Handle(now engine.Time, arg any) { h.m.slotWaitExpired(now, arg.(*call)) }

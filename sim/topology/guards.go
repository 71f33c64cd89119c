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
	breakerState  breaker.State      // as of the last logged transition (events_hooks.go)
	retryGate     *breaker.RetryGate // a breaker for retries only
	budget        budget.Quota       // any token kind
	perCall       *budget.PerCall    // budget, when it earns per call started (CallStarted)
	// perAttempt: some policy learns from each attempt's outcome (the
	// budget, a breaker inside the retry loop or for retries only, the
	// callee's outlier detector); without one, attemptOutcome has nothing
	// to tell. Set by callSite.finish.
	perAttempt bool
	// limitsRetries: a breaker for retries only, a token budget or a
	// concurrency budget may refuse a retry the policy allows. Set by
	// callSite.finish.
	limitsRetries bool
	// sendGate: sendAttempt has more to do than send (a hedge to start, a
	// breaker inside the retry loop to ask). Set by callSite.finish.
	sendGate bool
	// holds: a call may hold something here (a bulkhead slot or ticket,
	// a breaker permit around the whole call, a place in retryConc's
	// count); releaseCall asks releaseGuards only then. Set by
	// callSite.finish.
	holds bool
	// enter: startCall has more to do than dispatch (holds, or the kill
	// switch is on). Set by callSite.finish and killSwitch. Without it,
	// startCall dispatches at once: two calls fewer per call started
	// (-33 M instructions in mm10).
	enter       bool
	retryConc   *budget.Concurrency
	inflight    int  // calls in flight through the site, counted for retryConc only
	killed      bool // a kill switch is on: the fallback answers
	fallback    *FallbackConfig
	fallbackLat dist.Dist
	feature     *fallback.Feature // decides the fallback's answer; nil without one
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
	if c.RetryBreaker != nil {
		if g.retryGate, err = breaker.NewRetryGate(*c.RetryBreaker); err != nil {
			return err
		}
	}
	if q := c.quota(); q != (budget.QuotaConfig{}) {
		if g.budget, err = budget.NewQuota(q); err != nil {
			return err
		}
	}
	if f := c.Fallback; f != nil {
		g.fallback = f
		g.fallbackLat = f.Latency
		if g.feature, err = fallback.New(featureConfig(f.Level)); err != nil {
			return err
		}
	}
	return nil
}

// featureConfig configures the fallback.Feature behind a call's fallback:
// the one level l is available (a stale value is always at hand, of age
// 0), a killed feature answers at l, and the tracker keeps its defaults.
func featureConfig(l fallback.Level) fallback.Config {
	c := fallback.DefaultConfig()
	c.MaxAge, c.MaxStale = 0, -1
	if l == fallback.Stale {
		c.MaxStale = 0
	}
	c.HasGeneric, c.HasEmpty = l == fallback.Generic, l == fallback.Empty
	c.KilledLevel = l
	return c
}

// fallbackServes asks the site's fallback.Feature how c, which failed, is
// answered: it walks from the failed main path to the fallback's level,
// and on to an error if the fallback fails too (with probability
// FailRate, drawn here: the model owns the randomness). It reports
// whether the fallback answered.
func (m *Model) fallbackServes(now engine.Time, c *call) bool {
	g := &c.site.guards
	fa := g.feature.Begin(now.Duration(), fallback.Cached{Present: true, StoredAt: now.Duration()})
	if fa.Level() == fallback.Fresh {
		fa.Fail() // the main path failed (a killed feature starts at the fallback)
	}
	if f := g.fallback; f.FailRate > 0 && c.site.rng.Float64() < f.FailRate {
		fa.Fail() // the fallback failed too (it went to the same broken cache, say)
	}
	g.feature.Serve(now.Duration(), fa)
	return fa.Level().Degraded()
}

// enterBulkhead takes a slot for c, waits for one, or refuses the call.
// A killed feature answers from its fallback without calling at all.
func (m *Model) enterBulkhead(now engine.Time, c *call) {
	g := &c.site.guards
	if g.retryConc != nil {
		g.inflight++
	}
	if g.killed {
		c.site.st.inc(m, now, sKilled)
		m.failLater(now, c, policies.Cancelled, stKilled, "the kill switch is on")
		return
	}
	if g.bulkhead == nil {
		m.enterBreaker(now, c)
		return
	}
	dl := bulkhead.NoDeadline
	if at, ok := c.dl.Expiry(); ok {
		dl = at
	}
	acq := g.bulkhead.Acquire(now.Duration(), dl)
	switch acq.Decision {
	case bulkhead.Granted:
		c.holdsSlot = true
		m.enterBreaker(now, c)
	case bulkhead.Queued:
		c.ticket = acq.Ticket
		m.callTo(now, c, cpWaitSlot, "")
		g.waiting[acq.Ticket] = c
		if acq.WaitUntil != bulkhead.NoDeadline {
			c.waitEv = m.at(engine.Time(acq.WaitUntil), &m.hSlotWait, c)
		}
	default:
		c.site.st.inc(m, now, sBulkheadFull)
		m.failLater(now, c, policies.BulkheadFull, stBulkheadFull, "the bulkhead is full")
	}
}

// slotWaitExpired: a call waited its bounded time for a slot in vain.
func (m *Model) slotWaitExpired(now engine.Time, c *call) {
	g := &c.site.guards
	c.waitEv = 0
	m.callTo(now, c, cpRefused, "waited for a bulkhead slot in vain")
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
	w.waitEv = 0
	w.holdsSlot = true
	if w.dl.Expired(now.Duration()) {
		m.failLater(now, w, policies.DeadlineExceeded, stDropped, "got a bulkhead slot after its deadline")
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
		p, ok := m.breakerAllow(now, c.site)
		if !ok {
			c.site.st.inc(m, now, sShortCircuited)
			m.failLater(now, c, policies.CircuitOpen, stCircuitOpen, "the breaker is open")
			return
		}
		c.permit, c.hasPermit = p, true
	}
	m.dispatch(now, c)
}

// failLater reports a refusal by an event, so that the call's owner is
// never notified from inside its own startCall. why says which guard
// refused, for the observer.
func (m *Model) failLater(now engine.Time, c *call, o policies.Outcome, st status, why string) {
	m.callTo(now, c, cpRefused, why)
	c.failO, c.failSt = o, st
	c.retryEv = m.after(0, &m.hFail, c)
}

// attemptOutcome feeds one attempt's outcome, as the caller saw it, to the
// policies that learn per attempt: the retry budget, a breaker inside the
// retry loop or for retries only, the callee's outlier detector. Callers
// call it only at a site with such a policy (guards.perAttempt): without
// one there is nothing to tell, and the test inlined there spares each
// answer and timeout a call.
func (m *Model) attemptOutcome(now engine.Time, a *attempt, o policies.Outcome) {
	site := a.site
	g := &site.guards
	if o == policies.Success && g.budget != nil {
		g.budget.Deposit(now.Duration(), a.paid != 0, a.paid)
	}
	if g.breaker != nil && g.breakerInside {
		m.breakerRecord(now, site, a.permit, o, now.Sub(a.sent))
	}
	if g.retryGate != nil {
		g.retryGate.Record(now.Duration(), o)
	}
	if a.inst != nil && site.target.outlier != nil {
		site.target.outlierRecord(now, a.inst, o)
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

package topology

import (
	"fmt"
	"github.com/ressim/ressim/sim/policies/timeout"
	"math/rand/v2"
	"time"

	"github.com/ressim/ressim/sim/dist"
	"github.com/ressim/ressim/sim/engine"
	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/breaker"
	"github.com/ressim/ressim/sim/policies/retry"
)

// callSite is one (caller, callee, operation): the policies that guard the
// call live here, shared by every call made through it.
type callSite struct {
	m                  *Model
	caller, callee, op string
	target             *service
	handler            *handler // the callee's handler for op
	timeout            time.Duration
	to                 *timeout.Policy // the per-attempt timeout, nil if none
	lane               *engine.Lane    // timeouts, when constant
	retry              *retry.Policy
	network            dist.Dist
	hasNet             bool
	guards             siteGuards
	rng                *rand.Rand
	st                 siteStats
}

func (m *Model) newSite(caller, callee, op string, p CallPolicy) (*callSite, error) {
	s := &callSite{
		m: m, caller: caller, callee: callee, op: op,
		target:  m.byName[callee],
		timeout: p.Timeout,
		network: p.Network,
		hasNet:  p.Network.Kind() != 0,
	}
	h, ok := s.target.handlers[op]
	if !ok {
		h = s.target.handlers[""]
	}
	s.handler = h
	if s.op == "" {
		s.op = "call"
	}
	s.rng = m.sim.Stream("site/" + s.name())
	if p.Timeout > 0 {
		to, err := timeout.New(timeout.Config{Attempt: p.Timeout})
		if err != nil {
			return nil, fmt.Errorf("topology: call %s: %w", s.name(), err)
		}
		s.to = &to
		lane, err := m.sim.NewLane(p.Timeout)
		if err != nil {
			return nil, fmt.Errorf("topology: call %s: %w", s.name(), err)
		}
		s.lane = lane
	}
	if p.Retry.MaxAttempts > 1 {
		rc := p.Retry
		rc.AttemptTimeout = p.Timeout
		r, err := retry.New(rc)
		if err != nil {
			return nil, fmt.Errorf("topology: call %s: %w", s.name(), err)
		}
		s.retry = r
	}
	if err := s.guards.build(p.Guards); err != nil {
		return nil, fmt.Errorf("topology: call %s: %w", s.name(), err)
	}
	m.sites = append(m.sites, s)
	return s, nil
}

// name is "caller->callee/op".
func (s *callSite) name() string { return s.caller + "->" + s.callee + "/" + s.op }

// startCall begins a logical call for a handler (job) or a user request.
// It never completes synchronously: every outcome arrives by an event, so
// the caller's state is always consistent when it is notified.
func (m *Model) startCall(now engine.Time, site *callSite, job *attempt, user *userReq, critical bool) *call {
	c := m.pool.call()
	c.site, c.ownerJob, c.ownerUser, c.critical = site, job, user, critical
	switch {
	case user != nil:
		c.dl = user.dl
	case job != nil:
		c.dl = job.dl
	}
	c.started = now
	switch {
	case job != nil:
		c.prio, c.trace = job.prio, job.trace
	case user != nil:
		c.prio, c.trace = user.client.cfg.Priority, user.trace
	}
	site.st.inc(m, now, sCalls)
	m.sending++
	m.enterBulkhead(now, c)
	m.sending--
	return c
}

// timeoutOf is the timeout of c's attempt sent at now, by the policy
// packages: the site's per-attempt timeout cut to what is left of the
// deadline when the caller knows it (timeout.Policy.Effective), or, with no
// per-attempt timeout, what is left (deadline.Remaining). cut reports that
// the deadline set it; to is 0 and cut false when there is neither.
func (m *Model) timeoutOf(now engine.Time, c *call) (to time.Duration, cut bool) {
	site := c.site
	at, knows := c.dl.Expiry()
	if !knows || !(m.propagate || c.ownerUser != nil) {
		return site.timeout, false
	}
	if c.dl.Expired(now.Duration()) {
		return 0, true
	}
	if site.to == nil {
		return c.dl.Remaining(now.Duration()), true
	}
	to = site.to.Effective(now.Duration(), at)
	return to, to < site.timeout
}

// dispatch makes the call's next attempt, through the target's cache if it
// has one.
func (m *Model) dispatch(now engine.Time, c *call) {
	site := c.site
	if ca := site.target.cache; ca != nil {
		hit, lat := ca.lookup()
		c.cacheMiss = !hit
		if hit || lat > 0 {
			m.callTo(now, c, cpLookup, "")
			c.retryEv = m.after(lat, &m.hCache, c)
			return
		}
	}
	m.sendAttempt(now, c)
}

// cacheLookupDone answers a hit, or sends a miss on to the service.
func (m *Model) cacheLookupDone(now engine.Time, c *call) {
	c.retryEv = 0
	if !c.cacheMiss {
		m.noteCall(now, c, "cache hit")
		c.site.st.inc(m, now, sCacheHits)
		m.finishCall(now, c, stOK)
		return
	}
	m.sendAttempt(now, c)
}

// sendAttempt sends one attempt of c to an instance of the target.
func (m *Model) sendAttempt(now engine.Time, c *call) {
	site := c.site
	var permit breaker.Permit
	if g := &site.guards; g.breaker != nil && g.breakerInside {
		p, ok := g.breaker.Allow(now.Duration())
		if !ok {
			site.st.inc(m, now, sShortCircuited)
			if c.rs.Attempts() > 1 {
				site.st.inc(m, now, sRetryIntoOpen)
			}
			m.failLater(now, c, policies.CircuitOpen, stCircuitOpen, "the breaker inside the retry refused the attempt")
			return
		}
		permit = p
	}
	a := m.pool.attempt()
	a.permit = permit
	a.prio, a.trace = c.prio, c.trace
	a.call, a.site, a.sent = c, site, now
	a.num = c.rs.Attempts()
	c.cur = a
	m.callTo(now, c, cpAttempting, "")
	m.attemptTo(now, a, apSending, "")
	site.st.inc(m, now, sAttempts)
	if c.rs.Attempts() > 1 {
		site.st.inc(m, now, sRetries)
	}
	to, cut := m.timeoutOf(now, c)
	switch {
	case cut:
		a.timeoutEv = m.after(to, &m.hTimeout, a)
	case site.lane != nil:
		a.timeoutEv = site.lane.Schedule(&m.hTimeout, a)
	}
	// With propagation the callee learns when its caller will stop
	// waiting: the deadline, shortened to the attempt's own timeout.
	if m.propagate {
		a.dl = c.dl
		if site.to != nil {
			a.dl = a.dl.WithTimeout(now.Duration(), site.timeout)
		}
	}
	m.sending++
	m.deliverAttempt(now, a, c, site)
	m.sending--
}

// deliverAttempt sends a to an instance, or refuses it when none is up.
func (m *Model) deliverAttempt(now engine.Time, a *attempt, c *call, site *callSite) {
	inst := site.target.pick()
	if inst == nil {
		// No instance is up: refused at once, as a connection error would be.
		site.target.st.inc(m, now, cRejected)
		a.status = stRejected
		m.attemptTo(now, a, apResponding, "no instance is up: refused")
		m.after(0, &m.hResponse, a)
		return
	}
	a.inst = inst
	inst.outstanding++
	if site.hasNet {
		d := site.network.Sample(site.rng)
		m.attemptTo(now, a, apNetwork, "")
		if m.observe != nil {
			m.noteAttempt(now, a, "network delay "+d.String()+" to the instance")
		}
		m.after(d, &m.hArrive, a)
		return
	}
	inst.arrive(now, a)
}

// outcomeOf maps a response status to the caller's view of it.
func outcomeOf(st status) policies.Outcome {
	switch st {
	case stOK, stDegraded:
		return policies.Success
	case stRejected:
		return policies.Rejected
	case stDropped:
		return policies.DeadlineExceeded
	case stTimeout:
		return policies.Timeout
	case stCircuitOpen:
		return policies.CircuitOpen
	case stBulkheadFull:
		return policies.BulkheadFull
	}
	return policies.Error
}

// response delivers an attempt's answer to its caller, if it still waits.
func (m *Model) response(now engine.Time, a *attempt) {
	c := a.call
	if a.caller == cvAbandoned {
		m.attemptTo(now, a, apDone, "answer discarded: the caller stopped waiting")
		m.pool.releaseAttempt(a)
		return
	}
	m.attemptTo(now, a, apDone, "")
	m.sim.Cancel(a.timeoutEv)
	a.caller = cvAnswered
	c.cur = nil
	st := a.status
	site := c.site
	if a.trace != 0 {
		m.traceAttempt(now, a, c, "answer: "+st.String())
	}
	m.attemptOutcome(now, a, outcomeOf(st))
	m.pool.releaseAttempt(a)
	switch st {
	case stOK, stDegraded:
		site.st.inc(m, now, sOK)
		if c.cacheMiss {
			site.target.cache.fill()
		}
		m.finishCall(now, c, st)
		return
	case stRejected:
		site.st.inc(m, now, sRejected)
	case stDropped:
		site.st.inc(m, now, sDropped)
	default:
		site.st.inc(m, now, sErrors)
	}
	m.afterFailure(now, c, outcomeOf(st), st)
}

// attemptTimeout: the caller stops waiting for the attempt.
func (m *Model) attemptTimeout(now engine.Time, a *attempt) {
	c := a.call
	a.timeoutEv = 0
	if a.trace != 0 {
		m.traceAttempt(now, a, c, "timed out; the callee may still be working")
	}
	a.caller, a.call = cvAbandoned, nil
	c.cur = nil
	m.noteAttempt(now, a, "timed out; the callee may still be working")
	m.attemptOutcome(now, a, policies.Timeout)
	m.pool.releaseAttempt(a)
	c.site.st.inc(m, now, sTimeouts)
	c.site.target.st.inc(m, now, cTimedOut)
	m.afterFailure(now, c, policies.Timeout, stTimeout)
}

// afterFailure retries a failed attempt if the retry policy allows, or
// finishes the call with the failure.
func (m *Model) afterFailure(now engine.Time, c *call, o policies.Outcome, st status) {
	site := c.site
	if site.retry != nil {
		var dl time.Duration
		dl, _ = c.dl.Expiry()
		d := site.retry.DecideAfter(now.Duration(), c.rs, o, dl, site.rng.Float64(), c.retryAfter)
		if d.Retry && site.guards.budget != nil && !site.guards.budget.TryRetry(now.Duration()) {
			d = d.Deny(retry.ReasonBudget)
		}
		if g := &site.guards; d.Retry && g.retryConc != nil {
			m.releaseRetrySlot(c) // the previous retry, if it was one, has ended
			if g.retryConc.TryAcquire(g.inflight) {
				c.retrySlot = true
			} else {
				d = d.Deny(retry.ReasonBudget)
			}
		}
		if d.Retry {
			if c.trace != 0 {
				m.trace.add(c.trace, "backoff", "backoff before retry", now, engine.Time(d.At), "after "+o.String())
			}
			c.rs = d.Next
			m.callTo(now, c, cpBackoff, "")
			if m.observe != nil {
				m.noteCall(now, c, "retry at "+time.Duration(d.At).String()+" after "+o.String())
			}
			c.retryEv = m.at(engine.Time(d.At), &m.hRetry, c)
			return
		}
		if d.Reason < retry.Reason(len(site.st.denied)) && now >= m.warmup {
			site.st.denied[d.Reason]++
		}
		site.st.inc(m, now, sRetryDenied)
	}
	site.st.inc(m, now, sFailed)
	m.finishCall(now, c, st)
}

// finishCall settles the call's guards (the breaker's record, the
// bulkhead's slot) and its fallback, then hands the final status to the
// owner.
func (m *Model) finishCall(now engine.Time, c *call, st status) {
	m.releaseCall(now, c, outcomeOf(st))
	g := &c.site.guards
	if g.feature != nil && st != stOK && st != stDegraded {
		if !m.fallbackServes(now, c) {
			// The fallback failed too: the call fails after all.
			c.site.st.inc(m, now, sFallbackFailed)
		} else {
			st = stDegraded
			c.site.st.inc(m, now, sFallback)
			if g.fallbackLat.Kind() != 0 {
				d := g.fallbackLat.Sample(c.site.rng)
				m.callTo(now, c, cpFallback, "")
				if m.observe != nil {
					m.noteCall(now, c, "the fallback answers in "+d.String())
				}
				c.retryEv = m.after(d, &m.hFallback, c)
				return
			}
		}
	}
	if st == stKilled {
		st = stError // a killed feature without a fallback fails fast
	}
	m.notifyOwner(now, c, st)
}

// notifyOwner hands the call's final status to its owner and frees it.
func (m *Model) notifyOwner(now engine.Time, c *call, st status) {
	if c.trace != 0 {
		m.trace.add(c.trace, "call", "call "+c.site.name(), c.started, now, "result: "+st.String())
	}
	m.callTo(now, c, cpDone, "")
	if m.observe != nil {
		m.noteCall(now, c, "result: "+st.String())
	}
	job, user, critical := c.ownerJob, c.ownerUser, c.critical
	m.pool.putCall(c)
	if job != nil {
		m.childDone(now, job, critical, st)
		return
	}
	m.userAnswered(now, user, st)
}

// abandonCall: the owner gives up on c (the user's deadline passed).
func (m *Model) abandonCall(now engine.Time, c *call) {
	if c.phase != cpFallback {
		m.releaseCall(now, c, policies.Cancelled)
	} else {
		m.sim.Cancel(c.retryEv) // its guards were settled when it failed
	}
	m.callTo(now, c, cpDone, "the owner gave up")
	m.pool.putCall(c)
}

// releaseCall gives back everything c holds, whatever its phase: its
// pending timer, its bulkhead ticket or slot, its breaker permit (recorded
// with outcome o), its hold on the retry budget, its count in flight, and
// the attempt in flight, which its caller abandons. It is the one place
// that does, for every way a call ends; it runs once per call.
func (m *Model) releaseCall(now engine.Time, c *call, o policies.Outcome) {
	g := &c.site.guards
	if c.retryEv != 0 {
		m.sim.Cancel(c.retryEv)
		c.retryEv = 0
	}
	if c.phase == cpWaitSlot {
		m.sim.Cancel(c.waitEv)
		c.waitEv = 0
		g.bulkhead.Cancel(c.ticket)
		delete(g.waiting, c.ticket)
	}
	m.releaseRetrySlot(c)
	g.inflight--
	if c.hasPermit {
		c.hasPermit = false
		m.breakerRecord(now, c.site, c.permit, o, now.Sub(c.started))
	}
	if c.holdsSlot {
		c.holdsSlot = false
		m.releaseSlot(now, c.site)
	}
	if a := c.cur; a != nil {
		m.sim.Cancel(a.timeoutEv)
		a.timeoutEv = 0
		a.caller, a.call = cvAbandoned, nil
		c.cur = nil
		m.noteAttempt(now, a, "abandoned: its caller gave up")
		m.pool.releaseAttempt(a)
	}
}

// traceAttempt records an attempt's span as its caller saw it.
func (m *Model) traceAttempt(now engine.Time, a *attempt, c *call, detail string) {
	where := a.site.callee
	if a.inst != nil {
		where = fmt.Sprintf("%s[%d]", a.site.callee, a.inst.idx)
	}
	m.trace.add(a.trace, "attempt", fmt.Sprintf("attempt %d to %s", c.rs.Attempts(), where), a.sent, now, detail)
}

// releaseRetrySlot ends a retry's hold on the site's Envoy-style retry
// budget.
func (m *Model) releaseRetrySlot(c *call) {
	if c.retrySlot {
		c.retrySlot = false
		c.site.guards.retryConc.Release()
	}
}

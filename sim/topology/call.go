package topology

import (
	"time"

	"github.com/ressim/ressim/sim/engine"
	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/breaker"
)

// startCall begins a logical call for a handler (job) or, job nil, a user
// request.
// It never completes synchronously: every outcome arrives by an event, so
// the caller's state is always consistent when it is notified.
func (m *Model) startCall(now engine.Time, site *callSite, job *attempt, user *userReq, critical bool) *call {
	c := m.pool.call()
	c.site, c.ownerJob, c.ownerUser, c.critical, c.started = site, job, user, critical, now
	// Every field the pool leaves is set here: job or user is not nil.
	if job != nil {
		c.dl, c.prio, c.trace = job.dl, job.prio, job.trace
		c.userID, c.keyID = job.userID, job.keyID
		if job.inst.svc.cfg.Cancellation != CancelNever {
			linkKid(job, c)
		}
	} else {
		c.dl, c.prio, c.trace = user.dl, user.client.cfg.Priority, user.trace
		c.userID, c.keyID = user.userID, user.keyID
	}
	if c.trace != 0 {
		c.tparent = m.trace.callParent(job, user)
	}
	site.st.inc(m, now, sCalls)
	if b := site.guards.perCall; b != nil {
		b.CallStarted(now.Duration())
	}
	m.sending++
	if site.guards.enter {
		m.enterBulkhead(now, c)
	} else {
		m.dispatch(now, c) // no guard to pass (guards.enter)
	}
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
	// The caller knows its deadline when it is a user's request (first:
	// one test, not two, for the retry storm's every attempt, -2.7 M) or
	// when deadlines propagate.
	if !knows || !(c.ownerUser != nil || m.propagate) {
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

// gateSend does what send must before it sends, through the cache ca or
// on a site whose sendGate is set: a cache lookup that answers, or takes
// time, is made instead (ok false: the lookup's event goes on); a hedged
// call's first send starts its hedging instead (ok false: the hedge
// sends), and a breaker inside the retry loop is asked for a permit (ok
// false: refused, reported by an event).
func (m *Model) gateSend(now engine.Time, c *call, ca *cache) (permit breaker.Permit, ok bool) {
	if ca != nil {
		hit, lat := ca.lookup()
		c.cacheMiss = !hit
		if hit || lat > 0 {
			m.callTo(now, c, cpLookup, "")
			c.retryEv = m.after(lat, &m.hCache, c)
			return permit, false
		}
	}
	site := c.site
	if site.hedge != nil && c.hg == nil {
		m.startHedge(now, c)
		return permit, false
	}
	if g := &site.guards; g.breaker != nil && g.breakerInside {
		p, ok := m.breakerAllow(now, site)
		if !ok {
			site.st.inc(m, now, sShortCircuited)
			if c.rs.Attempts() > 1 {
				site.st.inc(m, now, sRetryIntoOpen)
			}
			m.failLater(now, c, policies.CircuitOpen, stCircuitOpen, "the breaker inside the retry refused the attempt")
			return permit, false
		}
		permit = p
	}
	return permit, true
}

// dispatch makes the call's next attempt, through the target's cache if it
// has one. It inlines into its callers, saving a call on every attempt:
// the lookup is made in gateSend, behind the test send makes anyway.
func (m *Model) dispatch(now engine.Time, c *call) { m.send(now, c, c.site.target.cache) }

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

// sendAttempt sends one attempt of c to an instance of the target, past
// its cache; a hedged call's first goes through its hedging policy
// (hedge.go).
func (m *Model) sendAttempt(now engine.Time, c *call) { m.send(now, c, nil) }

// send is sendAttempt, through the cache ca when it is not nil (dispatch).
// The common delivery, to an instance up with no network delay, is made
// here rather than in deliverAttempt: a call less on every attempt.
func (m *Model) send(now engine.Time, c *call, ca *cache) {
	site := c.site
	var permit breaker.Permit
	if ca != nil || site.guards.sendGate {
		p, ok := m.gateSend(now, c, ca)
		if !ok {
			return
		}
		permit = p
	}
	a := m.pool.attempt()
	a.permit = permit
	a.prio, a.trace = c.prio, c.trace
	a.userID, a.keyID = c.userID, c.keyID
	a.call, a.site, a.sent = c, site, now
	n := c.rs.Attempts()
	a.num = n
	if a.trace != 0 {
		a.tspan = m.trace.attemptStart(a, c, now)
	}
	a.paid, c.paid = c.paid, 0
	c.track(a)
	m.callTo(now, c, cpAttempting, "")
	m.attemptTo(now, a, apSending, "")
	site.st.inc(m, now, sAttempts)
	if n > 1 {
		site.st.inc(m, now, sRetries)
	}
	inst := site.target.pickOnly()
	if inst == nil {
		inst = site.target.pick()
	}
	// An attempt refused at the door has its answer on the way for this
	// instant: its timeout, due later, would only be cancelled by it, so
	// it is not scheduled (refusesAtOnce). Without a timeout, a deadline
	// or propagation (M/M/10) armTimeout has nothing to do: the call is
	// skipped (-20 M instructions there).
	var door bool
	if site.lane != nil || site.toRng != nil || c.dl.IsSet() || m.propagate {
		door = inst != nil && site.door && inst.refusesAtOnce()
		// For an attempt refused at the door armTimeout only draws,
		// propagates or times out a passed deadline (-11 M in the storm).
		if !door || site.toRng != nil || m.propagate || c.dl.Expired(now.Duration()) {
			m.armTimeout(now, a, c, site, !door)
		}
	}
	m.sending++
	if inst != nil && !site.hasNet {
		a.inst = inst
		inst.outstanding++
		inst.arrive(now, a)
		if door && a.phase != apResponding {
			panic("topology: an attempt refusesAtOnce foresaw was not refused")
		}
	} else {
		m.deliverAttempt(now, a, site, inst)
	}
	m.sending--
}

// armTimeout schedules a's timeout (the site's, constant or drawn when
// exponential, cut to the deadline) and, with propagation, tells the
// callee when its caller will stop waiting. With sched false it does all
// but schedule a timeout after the current instant: the attempt's answer
// is already due now (send), and every draw is still made. A drawn
// timeout goes out of line (armDrawnTimeout), so that the common path, a
// constant timeout or none, tests little and asks timeoutOf only when
// there is a deadline.
func (m *Model) armTimeout(now engine.Time, a *attempt, c *call, site *callSite, sched bool) {
	if site.toRng != nil {
		m.armDrawnTimeout(now, a, c, site, sched)
		return
	}
	// With propagation the callee learns when its caller will stop
	// waiting: the deadline, shortened to the attempt's own timeout. This
	// comes first, so that less is kept across the calls below.
	if m.propagate {
		a.dl = c.dl
		if site.to != nil {
			a.dl = a.dl.WithTimeout(now.Duration(), site.to.Attempt())
		}
	}
	// Without sched, only a timeout for the current instant is
	// scheduled, and timeoutOf gives one only for a deadline that has
	// passed: for any other, nothing is left to do.
	if !sched && !c.dl.Expired(now.Duration()) {
		return
	}
	if c.dl.IsSet() {
		if to, cut := m.timeoutOf(now, c); cut {
			m.armAfter(a, to, sched)
			return
		}
	}
	if sched && site.lane != nil { // a lane's delay is positive (buildTimeout)
		a.timeoutEv = site.lane.Schedule(&m.hTimeout, a)
	}
}

// armDrawnTimeout is armTimeout for an exponential timeout: this
// attempt's own draw, cut to the deadline like a constant one.
func (m *Model) armDrawnTimeout(now engine.Time, a *attempt, c *call, site *callSite, sched bool) {
	to := site.toExp.DrawFrom(site.toRng)
	if c.dl.IsSet() {
		if dto, dcut := m.timeoutOf(now, c); dcut && dto < to {
			to = dto
		}
	}
	m.armAfter(a, to, sched)
	// With propagation the callee learns when its caller will stop
	// waiting: the deadline, shortened to the attempt's own timeout.
	if m.propagate {
		a.dl = c.dl.WithTimeout(now.Duration(), to)
	}
}

// armAfter schedules a's timeout to after now, unless sched is false and
// it is due after the current instant (armTimeout).
func (m *Model) armAfter(a *attempt, to time.Duration, sched bool) {
	if sched || to <= 0 {
		a.timeoutEv = m.after(to, &m.hTimeout, a)
	}
}

// deliverAttempt sends a to inst across the site's network, or refuses it
// when no instance is up (inst nil); send delivers the rest itself.
func (m *Model) deliverAttempt(now engine.Time, a *attempt, site *callSite, inst *instance) {
	if inst == nil {
		// No instance is up: refused at once, as a connection error would be.
		site.target.st.inc(m, now, cRejected)
		a.status = stRejected
		m.attemptTo(now, a, apResponding, "no instance is up: refused")
		m.soon(&m.hResponse, a)
		return
	}
	a.inst = inst
	inst.outstanding++
	d := site.network.DrawFrom(site.rng)
	m.attemptTo(now, a, apNetwork, "")
	if m.observe != nil {
		m.noteAttempt(now, a, "network delay "+d.String()+" to the instance")
	}
	m.after(d, &m.hArrive, a)
}

package topology

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/engine"
	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/retry"
)

// statusOutcomes holds outcomeOf's answers, one byte per status in
// order: a constant, so that outcomeOf is a bounds test and a load where
// its switch was a chain of comparisons, inlined at each of its uses.
const statusOutcomes = string(rune(policies.Success)) + // stOK
	string(rune(policies.Success)) + // stDegraded
	string(rune(policies.Error)) + // stError
	string(rune(policies.Error)) + // stDepFailed
	string(rune(policies.Rejected)) + // stRejected
	string(rune(policies.DeadlineExceeded)) + // stDropped
	string(rune(policies.Timeout)) + // stTimeout
	string(rune(policies.CircuitOpen)) + // stCircuitOpen
	string(rune(policies.BulkheadFull)) + // stBulkheadFull
	string(rune(policies.Error)) // stKilled

// outcomeOf maps a response status to the caller's view of it: Success
// for an answer (degraded or not), Error for an error, a failed
// dependency, a killed feature or an unknown status.
func outcomeOf(st status) policies.Outcome {
	if int(st) < len(statusOutcomes) {
		return policies.Outcome(statusOutcomes[st])
	}
	return policies.Error
}

// Handle delivers an attempt's answer to its caller, if it still waits:
// the response event, and respond's direct delivery (m.hResponse.Handle).
// The handler is the function itself, not a wrapper calling it: an event
// costs one call less. The trace's span is built out of line
// (traceAnswer), so that its string does not cost the untraced run spills.
func (h *responseHandler) Handle(now engine.Time, arg any) {
	m, a := h.m, arg.(*attempt)
	if a.caller == cvAbandoned {
		m.attemptTo(now, a, apDone, "answer discarded: the caller stopped waiting")
		m.pool.free(a) // its caller and its callee are done with it
		return
	}
	c := a.call
	m.attemptTo(now, a, apDone, "")
	m.sim.Cancel(a.timeoutEv)
	a.caller = cvAnswered
	c.cur = nil
	st := a.status
	if a.trace != 0 {
		m.traceAnswer(now, a, c, st)
	}
	c.retryAfter = a.retryAfter // the callee's Retry-After hint, for the retry policy
	if a.site.guards.perAttempt {
		m.attemptOutcome(now, a, outcomeOf(st))
	}
	m.pool.free(a) // answered and done: releaseAttempt's test holds
	site := c.site
	switch st {
	case stOK, stDegraded:
		site.st.inc(m, now, sOK)
		if c.cacheMiss {
			site.target.cache.fill()
		}
		if c.hg != nil {
			m.hedgeWon(now, c, a)
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
	if c.hg != nil {
		c.dropCopy(a)
	}
	m.afterFailure(now, c, outcomeOf(st), st)
}

// traceAnswer ends the span of a traced attempt answered with st.
func (m *Model) traceAnswer(now engine.Time, a *attempt, c *call, st status) {
	m.traceAttempt(now, a, c, outcomeOf(st) != policies.Success, "answer: "+st.String())
}

// Handle is an attempt's timeout: the caller stops waiting for it. The
// handler is the function itself (see responseHandler.Handle).
func (h *timeoutHandler) Handle(now engine.Time, arg any) {
	m, a := h.m, arg.(*attempt)
	c := a.call
	a.timeoutEv = 0
	if c.hg != nil && m.hedgeKeeps(now, a) {
		return
	}
	if a.trace != 0 {
		m.traceAttempt(now, a, c, true, "timed out; the callee may still be working")
	}
	a.caller, a.call = cvAbandoned, nil
	c.cur = nil
	m.noteAttempt(now, a, "timed out; the callee may still be working")
	if a.site.guards.perAttempt {
		m.attemptOutcome(now, a, policies.Timeout)
	}
	m.pool.releaseAttempt(a)
	m.callerGone(now, a)
	// The site's and its target's inc, with one warm-up test (-3 M in
	// the retry storm).
	site := c.site
	site.st.iv[sTimeouts]++
	site.target.st.iv[cTimedOut]++
	if now >= m.warmup {
		site.st.win[sTimeouts]++
		site.target.st.win[cTimedOut]++
	}
	m.afterFailure(now, c, policies.Timeout, stTimeout)
}

// afterFailure retries a failed attempt if the retry policy allows, or
// finishes the call with the failure. A retry that a limiter may refuse,
// or that is traced or observed, goes on in retryChecked: kept out of
// line, with the Decision assigned once, that code no longer costs the
// retry storm's common case its frame, spills and copies of the Decision
// (35 instructions per failure).
func (m *Model) afterFailure(now engine.Time, c *call, o policies.Outcome, st status) {
	site := c.site
	if c.hg != nil {
		m.hedgeFailed(now, c, o, st)
		return
	}
	if p := site.retry; p != nil {
		dl, _ := c.dl.Expiry()
		d := p.DecideAfter(now.Duration(), c.rs, o, dl, site.rng.Float64(), c.retryAfter)
		if !d.Retry {
			m.retryDenied(now, site, d.Reason)
		} else if site.guards.limitsRetries || c.trace != 0 || m.observe != nil {
			m.retryChecked(now, c, o, st, d)
			return
		} else {
			c.rs = d.Next
			m.callTo(now, c, cpBackoff, "")
			if c.retryEv = m.retryNow(now, engine.Time(d.At), c); c.retryEv == 0 {
				c.retryEv = m.at(engine.Time(d.At), &m.hRetry, c)
			}
			return
		}
	} else {
		site.st.inc(m, now, sFailed)
	}
	m.finishCall(now, c, st)
}

// retryChecked is afterFailure for a retry the policy allows that the
// site's limiters may refuse, or in a traced or observed run.
func (m *Model) retryChecked(now engine.Time, c *call, o policies.Outcome, st status, d retry.Decision) {
	if c.site.guards.limitsRetries {
		d = m.limitRetry(now, c, o, d)
	}
	if !d.Retry {
		m.retryDenied(now, c.site, d.Reason)
		m.finishCall(now, c, st)
		return
	}
	if c.trace != 0 {
		m.trace.add(c.trace, "backoff", "backoff before retry", now, engine.Time(d.At), "after "+o.String())
	}
	c.rs = d.Next
	m.callTo(now, c, cpBackoff, "")
	if m.observe != nil {
		m.noteCall(now, c, "retry at "+time.Duration(d.At).String()+" after "+o.String())
	}
	if c.retryEv = m.retryNow(now, engine.Time(d.At), c); c.retryEv == 0 {
		c.retryEv = m.at(engine.Time(d.At), &m.hRetry, c)
	}
}

// retryDenied counts a retry the policy or a limiter refused, by reason,
// and the call's failure that follows: the three counts with one
// warm-up test (-4 M instructions in the retry storm).
func (m *Model) retryDenied(now engine.Time, site *callSite, r retry.Reason) {
	site.st.iv[sRetryDenied]++
	site.st.iv[sFailed]++
	if now >= m.warmup {
		if r < retry.Reason(len(site.st.denied)) {
			site.st.denied[r]++
		}
		site.st.win[sRetryDenied]++
		site.st.win[sFailed]++
	}
}

// limitRetry asks the site's retry limiters, in order, about the retry d
// allows: a breaker for retries only, the token budget (which takes the
// retry's cost, kept on the call for a refund), Envoy's concurrency budget.
func (m *Model) limitRetry(now engine.Time, c *call, o policies.Outcome, d retry.Decision) retry.Decision {
	g := &c.site.guards
	if g.retryGate != nil && !g.retryGate.AllowRetry(now.Duration()) {
		d = d.Deny(retry.ReasonBreaker)
	}
	if b := g.budget; d.Retry && b != nil {
		ok, paid := b.Withdraw(now.Duration(), o)
		if !ok {
			d = d.Deny(retry.ReasonBudget)
		}
		c.paid = paid
	}
	if d.Retry && g.retryConc != nil {
		m.releaseRetrySlot(c) // the previous retry, if it was one, has ended
		if g.retryConc.TryAcquire(g.inflight) {
			c.retrySlot = true
		} else {
			d = d.Deny(retry.ReasonBudget)
		}
	}
	return d
}

// finishCall settles the call's guards (the breaker's record, the
// bulkhead's slot) and its fallback, then hands the final status to the
// owner. A failed call with a fallback to consult, or a killed feature,
// goes on in finishSlow.
func (m *Model) finishCall(now engine.Time, c *call, st status) {
	m.releaseCall(now, c, outcomeOf(st))
	if st != stOK && st != stDegraded && (c.site.guards.feature != nil || st == stKilled) {
		m.finishSlow(now, c, st)
		return
	}
	m.notifyOwner(now, c, st)
}

// finishSlow is finishCall after the release, for a failed call with a
// fallback or a killed feature.
func (m *Model) finishSlow(now engine.Time, c *call, st status) {
	g := &c.site.guards
	if g.feature != nil && st != stOK && st != stDegraded {
		if !m.fallbackServes(now, c) {
			// The fallback failed too: the call fails after all.
			c.site.st.inc(m, now, sFallbackFailed)
		} else {
			st = stDegraded
			c.site.st.inc(m, now, sFallback)
			if g.fallbackLat.Kind() != 0 {
				d := g.fallbackLat.DrawFrom(c.site.rng)
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
	if job != nil {
		if job.kids != nil {
			unlinkKid(job, c)
		}
		m.pool.putCall(c)
		m.childDone(now, job, critical, st)
		return
	}
	m.pool.putCall(c)
	if user != nil {
		m.userAnswered(now, user, st)
	}
	// Otherwise its owner was cancelled (dropKids): the result is
	// discarded.
}

// abandonCall: the owner gives up on c (the user's deadline passed).
func (m *Model) abandonCall(now engine.Time, c *call) {
	if c.hg != nil {
		m.endHedge(now, c, false)
	}
	if c.phase != cpFallback {
		m.releaseCall(now, c, policies.Cancelled)
	} else {
		m.sim.Cancel(c.retryEv) // its guards were settled when it failed
	}
	m.callTo(now, c, cpDone, "the owner gave up")
	m.pool.putCall(c)
}

// traceAttempt records an attempt's span as its caller saw it, and ends
// its OpenTelemetry CLIENT span (failed: the attempt failed).
func (m *Model) traceAttempt(now engine.Time, a *attempt, c *call, failed bool, detail string) {
	m.trace.end(a.tspan, now, failed, detail)
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

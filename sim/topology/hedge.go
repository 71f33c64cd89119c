package topology

import (
	"strconv"
	"time"

	"github.com/ressim/ressim/sim/engine"
	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/budget"
	"github.com/ressim/ressim/sim/policies/hedge"
)

// A hedged call (CallPolicy.Hedge) sends copies of itself as its hedging
// policy decides (package hedge): at the start, after each delay, at once
// after a non-fatal failure, and, with OnPerTryTimeout, on a per-try
// timeout. Its copies in flight are c.hg.copies[:c.hg.n]; the first good
// answer wins, a fatal failure or the last copy's failure ends the call,
// and the other copies are then cancelled: their caller stops waiting
// (cvAbandoned), and the callee's cancellation mode (cancel.go) decides
// whether their work stops. Hedges draw on the call's retry budget, as
// gRPC's retryThrottling does for both retries and hedges.

// hedging is a hedged call's state: the policy's, its copies in flight
// (copies[:n]) and its pending hedge timer. A call gets one from the
// pool when its hedging starts, and gives it back with itself.
type hedging struct {
	hs     hedge.Call
	copies [hedge.MaxMaxAttempts]*attempt
	n      int8
	ev     engine.EventID
	next   *hedging
}

// startHedge starts a hedged call: its first copies, and its hedge timer.
func (m *Model) startHedge(now engine.Time, c *call) {
	c.hg = m.pool.hedging()
	m.applyHedge(now, c, c.site.hedge.Start(now.Duration(), hedge.Call{}, c.site.rng.Float64()), stOK)
}

// applyHedge carries out decision d; st is the status the call ends with
// if d fails it (the failure that decided it).
func (m *Model) applyHedge(now engine.Time, c *call, d hedge.Decision, st status) {
	site := c.site
	var paid budget.Receipt
	if d.Action == hedge.Send && d.Hedges > 0 {
		var n int
		n, paid = m.hedgesAllowed(now, site, d.Hedges)
		d = d.Limit(n)
	}
	c.hg.hs = d.Next
	switch d.Action {
	case hedge.Send:
		for i := range d.Send {
			c.paid = 0
			if i >= d.Send-d.Hedges {
				site.st.inc(m, now, sHedges)
				c.paid = paid // a success of this copy refunds it (an AWS quota)
			}
			if m.observe != nil {
				m.noteCall(now, c, "sends copy "+strconv.Itoa(int(c.hg.n)+1)+": "+d.Reason.String())
			}
			m.sendAttempt(now, c)
		}
	case hedge.Fail:
		m.endHedge(now, c, true)
		site.st.inc(m, now, sFailed)
		m.finishCall(now, c, st)
		return
	case hedge.Succeed:
		// Only an answer decides success, and answers go to hedgeWon.
		panic("topology: call " + site.name() + ": the hedge policy decided success with no answer")
	}
	m.armHedge(now, c, d.NextAt)
}

// hedgesAllowed asks the call's retry budget for up to n hedges, in order,
// stopping at the first refusal, and returns how many it allowed and what
// each paid (a hedge follows no failure: policies.Success to Withdraw).
func (m *Model) hedgesAllowed(now engine.Time, site *callSite, n int) (int, budget.Receipt) {
	b := site.guards.budget
	if b == nil {
		return n, 0
	}
	var paid budget.Receipt
	for k := range n {
		ok, r := b.Withdraw(now.Duration(), policies.Success)
		if !ok {
			return k, paid
		}
		paid = r
	}
	return n, paid
}

// armHedge sets the call's hedge timer for at (hedge.Never: none).
func (m *Model) armHedge(now engine.Time, c *call, at time.Duration) {
	if c.hg.ev != 0 {
		m.sim.Cancel(c.hg.ev)
		c.hg.ev = 0
	}
	if at != hedge.Never && at < m.end.Duration() {
		c.hg.ev = m.at(max(engine.Time(at), now), &m.hHedge, c)
	}
}

// hedgeDue: the call's next timed hedge is due.
func (h *hedgeHandler) Handle(now engine.Time, arg any) {
	c := arg.(*call)
	c.hg.ev = 0
	h.m.applyHedge(now, c, c.site.hedge.Due(now.Duration(), c.hg.hs), stOK)
}

// hedgeWon settles a hedged call whose copy a answered well: the others
// are cancelled. The caller finishes the call.
func (m *Model) hedgeWon(now engine.Time, c *call, a *attempt) {
	c.dropCopy(a)
	c.hg.hs = c.site.hedge.Outcome(now.Duration(), c.hg.hs, policies.Success).Next
	m.endHedge(now, c, true)
}

// endHedge ends a hedged call's hedging: its timer stops, its copies in
// flight are cancelled (lost: another copy decided the call; otherwise
// its owner gave up), and its state goes back to the pool. What follows
// (a fallback, the owner's notice) is as for any call.
func (m *Model) endHedge(now engine.Time, c *call, lost bool) {
	m.sim.Cancel(c.hg.ev)
	m.cancelCopies(now, c, lost)
	m.pool.putHedging(c.hg)
	c.hg = nil
}

// hedgeFailed hands a copy's failure to the hedging policy.
func (m *Model) hedgeFailed(now engine.Time, c *call, o policies.Outcome, st status) {
	m.applyHedge(now, c, c.site.hedge.Outcome(now.Duration(), c.hg.hs, o), st)
}

// hedgeKeeps handles a copy's per-try timeout: with OnPerTryTimeout the
// copy stays in flight and the next goes alongside it (true: nothing else
// to do); otherwise the copy is dropped from the call and its timeout is
// a failure like any other (false).
func (m *Model) hedgeKeeps(now engine.Time, a *attempt) bool {
	c := a.call
	if p := c.site.hedge; p.Config().OnPerTryTimeout {
		d := p.PerTryTimeout(now.Duration(), c.hg.hs)
		if d.Keep {
			m.noteAttempt(now, a, "per-try timeout: kept in flight, the next copy goes alongside")
			c.site.st.inc(m, now, sTimeouts)
			m.applyHedge(now, c, d, stTimeout)
			return true
		}
	}
	c.dropCopy(a)
	return false
}

// cancelCopies abandons every copy still in flight: lost, the call is
// decided (HedgesLost counts them); otherwise its owner gave up.
func (m *Model) cancelCopies(now engine.Time, c *call, lost bool) {
	why := "abandoned: its caller gave up"
	if lost {
		why = "cancelled: another copy decided the call"
	}
	h := c.hg
	for i := range h.n {
		a := h.copies[i]
		h.copies[i] = nil
		m.sim.Cancel(a.timeoutEv)
		a.timeoutEv = 0
		a.caller, a.call = cvAbandoned, nil
		if lost {
			c.site.st.inc(m, now, sHedgeLost)
		}
		if a.trace != 0 {
			m.traceAttempt(now, a, c, false, why)
		}
		m.noteAttempt(now, a, why)
		m.pool.releaseAttempt(a)
		m.callerGone(now, a)
	}
	h.n = 0
}

// track makes a the call's attempt in flight, or, for a hedged call,
// one of its copies in flight.
func (c *call) track(a *attempt) {
	if c.hg == nil {
		c.cur = a
		return
	}
	a.num = int(c.hg.n) + 1
	c.hg.copies[c.hg.n] = a
	c.hg.n++
}

// dropCopy removes a from the call's copies in flight.
func (c *call) dropCopy(a *attempt) {
	for i := range c.hg.n {
		if c.hg.copies[i] == a {
			c.hg.n--
			c.hg.copies[i] = c.hg.copies[c.hg.n]
			c.hg.copies[c.hg.n] = nil
			return
		}
	}
}

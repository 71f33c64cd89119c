package hedge

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

// Policy is an immutable hedging policy for one (caller, dependency,
// operation). It is safe for concurrent use.
type Policy struct {
	cfg Config
}

// New validates cfg and returns a Policy.
func New(cfg Config) (*Policy, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("hedge.New: %w", err)
	}
	return &Policy{cfg: cfg}, nil
}

// Config returns the policy's configuration.
func (p *Policy) Config() Config { return p.cfg }

// Call is the per-call hedging state, a small value the caller keeps with
// the request and replaces with Decision.Next after every decision. The zero
// Call is a call not yet started: pass it to Start.
type Call struct {
	next    time.Duration // instant the next timed hedge is due; Never: none
	sent    int8          // copies sent
	ended   int8          // copies that have ended (failed non-fatally, or cut by a per-try timeout)
	started bool
	done    bool
	stopped bool             // throttled: no further copy is sent
	last    policies.Outcome // outcome of the latest non-fatal failure
	out     policies.Outcome // the call's outcome once done
}

// Sent returns the number of copies sent so far.
func (c Call) Sent() int { return int(c.sent) }

// InFlight returns the number of copies sent whose outcome the call still
// waits for. Once the call is done, these are the copies to cancel.
func (c Call) InFlight() int { return int(c.sent - c.ended) }

// Started reports whether Start has been applied.
func (c Call) Started() bool { return c.started }

// Done reports whether the call has its final result.
func (c Call) Done() bool { return c.done }

// Outcome returns the call's final outcome once Done, Success or the
// failure that ended it; policies.Success before.
func (c Call) Outcome() policies.Outcome { return c.out }

// NextAt returns the instant the next timed hedge is due, or Never.
func (c Call) NextAt() time.Duration {
	if !c.started || c.done {
		return Never
	}
	return c.next
}

// Decision is the answer of Start, Due, Outcome and PerTryTimeout.
type Decision struct {
	// Action says what to do now.
	Action Action
	// Send is the number of copies to send now: > 0 exactly when Action is
	// Send.
	Send int
	// Hedges is the number of Send's copies that are hedges (every copy
	// but a call's first): the ones a budget or throttle may refuse, with
	// Limit or Deny.
	Hedges int
	// NextAt is the instant the next timed hedge is due, at which the
	// caller calls Due; Never when none will be.
	NextAt time.Duration
	// Outcome is the call's outcome when Action is Succeed (Success) or
	// Fail (the failure); policies.Success otherwise.
	Outcome policies.Outcome
	// Cancel is the number of copies still in flight that the caller must
	// cancel because the call is done; 0 unless Action is Succeed or Fail.
	Cancel int
	// Keep is set by PerTryTimeout when the copy whose per-try timeout
	// fired stays in flight (OnPerTryTimeout); when false after a per-try
	// timeout, the caller cancels that copy, which the decision counts as
	// ended with policies.Timeout.
	Keep bool
	// Reason says why.
	Reason Reason
	// Next is the call's state after the decision.
	Next Call
}

// Start starts a call at instant now: it returns the copies to send at once
// (InitialRequests, one more with probability AdditionalChance, all
// MaxAttempts when Delay is 0, never more than MaxAttempts) and when the
// next hedge is due. u is a uniform variate in [0, 1) drawn by the caller
// for AdditionalChance: one more copy is sent when u < AdditionalChance.
// Start ignores c unless it has already started (then ReasonIgnored); pass
// the zero Call. The first copy is the call itself, the others are hedges.
func (p *Policy) Start(now time.Duration, c Call, u float64) Decision {
	if c.started {
		return ignored(c)
	}
	n := p.cfg.InitialRequests
	if u < p.cfg.AdditionalChance {
		n++
	}
	if p.cfg.Delay == 0 {
		n = p.cfg.MaxAttempts
	}
	n = min(n, p.cfg.MaxAttempts)
	c = Call{started: true, sent: int8(n), next: p.after(now, n)}
	return Decision{Action: Send, Send: n, Hedges: n - 1, NextAt: c.next, Reason: ReasonStart, Next: c}
}

// Due is called at instant now, when the hedge the last decision scheduled
// at NextAt is due: it sends the next copy and says when the one after is
// due. Called before c's NextAt (a timer armed before a non-fatal failure
// short-cut the delay), it changes nothing (ReasonNotDue), so the caller
// need not stop stale timers.
func (p *Policy) Due(now time.Duration, c Call) Decision {
	switch {
	case !c.started || c.done:
		return ignored(c)
	case c.next == Never || now < c.next:
		return Decision{Action: Wait, NextAt: c.NextAt(), Reason: ReasonNotDue, Next: c}
	}
	// Anchored to the instant the hedge was due, not to now, so that copy
	// k goes out at k*Delay from the start even when the caller is late.
	return p.send(c, max(c.next, now-p.cfg.Delay), ReasonDelay, false)
}

// Outcome is called at instant now, when one copy of the call ended with
// outcome o. Success ends the call (Succeed); a fatal failure ends it
// (Fail, with o); a non-fatal failure sends the next copy at once if one is
// left and the call is not throttled, else waits for the copies in flight,
// or, when none is, ends the call with o (ReasonExhausted, or
// ReasonThrottled after a Deny). An outcome for a call that is done or not
// started changes nothing (ReasonIgnored): the late answer of a cancelled
// copy.
func (p *Policy) Outcome(now time.Duration, c Call, o policies.Outcome) Decision {
	if !c.started || c.done || c.InFlight() == 0 {
		return ignored(c)
	}
	switch {
	case o == policies.Success:
		return finish(c, Succeed, o, ReasonSuccess, c.InFlight()-1)
	case !p.cfg.NonFatal.Has(o) || !nonFatalAllowed.Has(o):
		return finish(c, Fail, o, ReasonFatal, c.InFlight()-1)
	}
	c.ended++
	c.last = o
	if c.stopped || int(c.sent) >= p.cfg.MaxAttempts {
		if c.InFlight() == 0 {
			r := ReasonExhausted
			if c.stopped && int(c.sent) < p.cfg.MaxAttempts {
				r = ReasonThrottled
			}
			return finish(c, Fail, o, r, 0)
		}
		return Decision{Action: Wait, NextAt: c.NextAt(), Reason: ReasonNonFatal, Next: c}
	}
	return p.send(c, now, ReasonNonFatal, false)
}

// PerTryTimeout is called at instant now, when the per-try timeout of one
// copy in flight fires. With OnPerTryTimeout the copy stays in flight
// (Keep) and the next copy, if one is left, is sent alongside it; the
// first good answer of either wins. Without it, the caller cancels the
// copy, and the decision is Outcome(now, c, policies.Timeout): fatal unless
// NonFatal holds Timeout.
func (p *Policy) PerTryTimeout(now time.Duration, c Call) Decision {
	if !p.cfg.OnPerTryTimeout {
		return p.Outcome(now, c, policies.Timeout)
	}
	if !c.started || c.done || c.InFlight() == 0 {
		return ignored(c)
	}
	if c.stopped || int(c.sent) >= p.cfg.MaxAttempts {
		return Decision{Action: Wait, NextAt: c.NextAt(), Keep: true, Reason: ReasonPerTryTimeout, Next: c}
	}
	return p.send(c, now, ReasonPerTryTimeout, true)
}

// send sends one more copy at instant from and schedules the next.
func (p *Policy) send(c Call, from time.Duration, r Reason, keep bool) Decision {
	c.sent++
	c.next = p.after(from, int(c.sent))
	return Decision{Action: Send, Send: 1, Hedges: 1, NextAt: c.next, Keep: keep, Reason: r, Next: c}
}

// after returns the instant of the next timed hedge after sent copies went
// out, the last of them at from: from + Delay, saturated at Never, or Never
// when no copy is left or Delay is Never.
func (p *Policy) after(from time.Duration, sent int) time.Duration {
	if sent >= p.cfg.MaxAttempts || p.cfg.Delay == Never || from > Never-p.cfg.Delay {
		return Never
	}
	return from + p.cfg.Delay
}

func finish(c Call, a Action, o policies.Outcome, r Reason, cancel int) Decision {
	c.done, c.out, c.next = true, o, Never
	return Decision{Action: a, NextAt: Never, Outcome: o, Cancel: cancel, Reason: r, Next: c}
}

func ignored(c Call) Decision {
	return Decision{Action: Wait, NextAt: c.NextAt(), Reason: ReasonIgnored, Next: c}
}

// Deny refuses every hedge of d: it is Limit(0).
func (d Decision) Deny() Decision { return d.Limit(0) }

// Limit lets at most k (k >= 0) of d's hedges go out, for a caller whose
// budget or throttle allowed only k (ask it once per hedge, in order, and
// stop at the first refusal). When it removes any hedge the call is
// throttled: no further copy is sent (NextAt becomes Never, and non-fatal
// failures and per-try timeouts no longer send copies), and the call waits
// for its copies in flight; if none is left in flight (the refused hedge
// was to replace a copy that failed non-fatally), the call is done with that
// failure (Fail, ReasonThrottled). A decision with no more than k hedges is
// returned unchanged. The call's first copy is never removed.
func (d Decision) Limit(k int) Decision {
	k = max(k, 0)
	if d.Action != Send || d.Hedges <= k {
		return d
	}
	drop := d.Hedges - k
	c := d.Next
	c.sent -= int8(drop)
	c.stopped = true
	c.next = Never
	if d.Send-drop > 0 {
		d.Send -= drop
		d.Hedges = k
		d.NextAt = Never
		d.Next = c
		return d
	}
	if c.InFlight() == 0 {
		out := finish(c, Fail, c.last, ReasonThrottled, 0)
		out.Keep = d.Keep
		return out
	}
	return Decision{Action: Wait, NextAt: Never, Keep: d.Keep, Reason: ReasonThrottled, Next: c}
}

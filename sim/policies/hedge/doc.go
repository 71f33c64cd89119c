// Package hedge decides when to send extra copies of a call and which copy's
// answer ends it: request hedging, from Jeffrey Dean and Luiz André
// Barroso, "The Tail at Scale" (Communications of the ACM 56(2), 2013).
//
// A hedged call sends its first copy at once and, if no answer has come
// after a delay, a second copy of the same request, perhaps to another
// replica; the first good answer wins and the others are cancelled. A rare
// slow copy then costs the delay plus a normal latency instead of its own
// tail. The paper recommends waiting for the 95th-percentile latency before
// hedging, which bounds the extra load at about 5 %. Every copy is load:
// hedging all calls at once doubles the load on the callee, and hedging
// near capacity slows the callee, which makes more calls slow, which sends
// more hedges: a storm in its own right, like a retry storm.
//
// # The rules
//
// The semantics are those of gRPC's hedgingPolicy (proposal A6, "gRPC Retry
// Design"), with Envoy's route hedge_policy on top:
//
//   - A call makes at most MaxAttempts copies, the first included (gRPC's
//     maxAttempts, which gRPC caps at 5; so does New).
//   - At the start, InitialRequests copies are sent at once (Envoy's
//     initial_requests, default 1), plus one more with probability
//     AdditionalChance (Envoy's additional_request_chance; the caller draws
//     the variate u).
//   - Each further copy is sent Delay after the one before (gRPC's
//     hedgingDelay): without failures, copy k at k*Delay after the call
//     started. Delay 0 sends all MaxAttempts copies at once; Delay Never
//     sends none on a timer.
//   - The first Success ends the call; the other copies are cancelled.
//   - A failure whose outcome is in NonFatal (gRPC's nonFatalStatusCodes)
//     lets the call go on: the next copy in line is sent at once,
//     short-cutting its delay, and the copy after it is due Delay later. A
//     failure with any other outcome is fatal: it ends the call with that
//     failure and the other copies are cancelled. CircuitOpen,
//     DeadlineExceeded and Cancelled are always fatal.
//   - When every copy has been sent and every one has failed non-fatally,
//     the call fails with the last failure (ReasonExhausted).
//   - A per-try timeout cancels its copy, which then counts as a Timeout
//     failure; with OnPerTryTimeout (Envoy's hedge_on_per_try_timeout) it
//     does not: the next copy is sent alongside the slow one and the first
//     good answer of either wins.
//
// # The state machine
//
// The caller keeps a Call (zero: not started) and feeds the policy four
// events, replacing the Call with Decision.Next each time:
//
//	d := pol.Start(now, hedge.Call{}, u) // the call starts: send d.Send copies
//	d := pol.Due(now, call)              // d.NextAt arrived: maybe send one
//	d := pol.Outcome(now, call, o)       // a copy ended with outcome o
//	d := pol.PerTryTimeout(now, call)    // a copy's per-try timer fired
//
// Decision.Action says what to do: Send (send Decision.Send copies now),
// Wait (nothing now), Succeed or Fail (the call is done with
// Decision.Outcome; cancel the Decision.Cancel copies still in flight). In
// every case Decision.NextAt is the instant at which to call Due, or Never.
// The caller need not disarm a timer that a short-cut made stale: Due before
// NextAt changes nothing (ReasonNotDue). Events after the call is done, such
// as the late answer of a cancelled copy, change nothing either
// (ReasonIgnored), so a call has exactly one final result and sends no copy
// after it.
//
// # Combining with a retry budget or gRPC's retryThrottling
//
// Hedges draw on the same budget as retries: in gRPC a hedge is not sent
// while the retryThrottling token bucket is below its threshold, and a
// failure of any copy counts as a failure for the bucket. This package
// imports no budget. The caller consults its budget only after the policy
// has decided to send hedges, once per hedge (the call's first copy is not a
// hedge), and reports the outcomes:
//
//	d := pol.Outcome(now, call, o) // or Start, Due, PerTryTimeout
//	if o == policies.Success {
//		bud.RecordSuccess(now)
//	}
//	k := 0
//	for k < d.Hedges && bud.TryRetry(now) {
//		k++
//	}
//	d = d.Limit(k) // d.Deny() when the budget is asked once, all or none
//	call = d.Next
//
// A decision whose hedges were refused throttles the call: it sends no
// further copy and waits for those in flight, or fails at once with the
// last failure if none is left (ReasonThrottled).
//
// # Cost
//
// MaxCopies is the bound a linter can check: a call makes at most
// MaxAttempts copies, so hedging multiplies the worst-case load by
// MaxAttempts, and hedging at every layer multiplies it across layers
// (Amplification). For independent copies with latency survival function S
// and no failures, Survival gives the closed form of the hedged call's
// response time and ExpectedCopies its expected load; with two copies and
// delay d, P(T > t) = S(t) for t < d and S(t)*S(t-d) after.
//
// # Shape and concurrency
//
// A *Policy is built once per (caller, dependency, operation) from a
// validated Config and is immutable, so it is safe for concurrent use. The
// per-call state is a small value, Call, that the caller keeps with the
// request; the methods take it by value and return the next one inside the
// Decision, so deciding allocates nothing. The package reads no clock, owns
// no timer and draws no random numbers itself: the caller sends the copies,
// arms a timer for NextAt (an engine event in the simulator, a Clock timer in
// package wall, whose Hedger runs this policy around real calls) and supplies
// u.
package hedge

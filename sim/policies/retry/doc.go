// Package retry decides whether a failed call attempt may be tried again, and
// after how long.
//
// Retries are the simplest resilience pattern and the most frequent cause of
// outages: they add load exactly when the callee can least take it, and they
// multiply across layers (3 client attempts x 3 gateway attempts x 3 service
// attempts = 27 calls at the bottom for one user request). This package
// therefore retries only when every one of these holds:
//
//  1. the outcome is retryable: by default Error, Timeout and Rejected.
//     Success, CircuitOpen, DeadlineExceeded and Cancelled are never retried
//     whatever the Config says (New rejects a RetryOn set that contains them);
//     BulkheadFull is not retried unless RetryOn names it. A breaker-open
//     rejection in particular is never retried: retrying it would spin on an
//     open circuit and burn the time budget;
//  2. the operation is idempotent (Config.Idempotent): a non-idempotent
//     operation is never retried;
//  3. attempts remain: MaxAttempts counts all attempts, the first included
//     (default 3, i.e. at most 2 retries; the source recommends 2-3);
//  4. the retry can finish before the request's deadline (below).
//
// Decide applies these checks in the order success, retryable outcome,
// idempotency, attempts left, deadline, and reports the first that fails as
// a typed Reason.
//
// # The deadline rule
//
// With now the instant of the decision, delay the backoff drawn for this
// retry, AttemptTimeout the per-attempt timeout and deadline the absolute
// expiry instant of the whole request (0 = no deadline), the retry is
// refused when
//
//	deadline != 0 && (now+delay+AttemptTimeout > deadline || now+delay >= deadline)
//
// The first clause refuses a retry whose attempt could not run its full
// timeout before the deadline; the second matters only when AttemptTimeout
// is 0 (the attempt's timeout is whatever the deadline leaves) and refuses a
// retry that would start with no time left. The source's own check (delay >
// remaining) is weaker: it lets a retry start that is certain to be cut off.
//
// # Backoff
//
// The delay before retry number n (n = 0 for the first retry, that is after
// the first attempt failed) follows one of the variants of Marc Brooker's
// "Exponential Backoff and Jitter" (AWS Architecture Blog, 2015), with
// base = Config.Base, cap = Config.Cap and u a uniform variate in [0, 1)
// supplied by the caller:
//
//	None                 0
//	Constant             base
//	Exponential          min(cap, base * 2^n)
//	FullJitter           uniform(0, min(cap, base * 2^n))          (default)
//	EqualJitter          e/2 + uniform(0, e/2), e = min(cap, base * 2^n)
//	DecorrelatedJitter   min(cap, uniform(base, prev * 3)), prev0 = base
//
// where uniform(a, b) = a + u*(b-a). Defaults: base 50 ms, cap 2 s. Full
// jitter is the default because Brooker's simulation shows it does the least
// work and finishes no later than the "smarter" variants; this package's
// TestBrookerContention reruns his contention simulation with these delays
// and matches his published call counts within 1.5 %.
//
// # Retry-After
//
// When a rejection carries a Retry-After hint (HTTP 429 or 503 from a
// shedding callee), DecideAfter waits max(backoff, hint): a client that
// answers backpressure with an immediate retry has turned it into
// amplification. The deadline rule applies to the longer delay.
//
// # Worst-case time
//
// With k attempts, per-attempt timeout T and cap C the source bounds the
// worst-case duration of a call by k*T + k*C (WorstCase). That number must
// fit in the user's deadline, or the retries are useless: the user has left
// while we are still heating someone else's service. Fits checks it.
// (Only k-1 delays actually occur, so k*T + k*C is conservative by one cap.)
//
// # Combining with a retry budget
//
// Retry budgets live in package budget, which this package does not import.
// The caller consults the budget only after Decide has allowed the retry, so
// that no token is spent on a retry refused for another reason, and reports
// every success to the budget:
//
//	d := pol.Decide(now, call, outcome, deadline, rng.Float64())
//	if outcome == policies.Success {
//		bud.RecordSuccess(now)
//	}
//	if d.Retry && !bud.TryRetry(now) {
//		d = d.Deny(retry.ReasonBudget)
//	}
//	if d.Retry {
//		call = d.Next // and schedule the next attempt at d.At
//	}
//
// # Shape and concurrency
//
// A *Policy is built once per (caller, dependency, operation) from a
// validated Config and is immutable, so it is safe for concurrent use. The
// per-call state is a small value, Call, that the caller keeps with the
// request; Decide takes it by value and returns the next one inside the
// Decision, so deciding allocates nothing. The package reads no clock, owns no
// timer and draws no random numbers itself: the caller schedules the next
// attempt at Decision.At and supplies u.
package retry

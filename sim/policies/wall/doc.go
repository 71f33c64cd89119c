// Package wall is ressim's wall-clock adapter: it runs the pure policy state
// machines of the other sim/policies packages around real calls in a real Go
// program. It is the only package of ressim allowed to read the clock, sleep,
// use timers or start goroutines (the purity test of package policies checks
// every other one).
//
// # Clock
//
// A policy takes instants as time.Duration values since a fixed origin (see
// package policies). A Clock supplies them: MonotonicClock reads
// time.Since(origin) on Go's monotonic clock, and ManualClock is a clock for
// tests whose time moves only when the test calls Set or Advance, so that the
// tests of the call path never sleep. The Clock also owns the two kinds of
// timer the path needs: the wait before a retry (AfterFunc) and the
// per-attempt deadline (WithDeadline).
//
// # The call path
//
// A Caller guards the calls to one (dependency, operation) pair. Do(ctx, fn)
// applies, outside in, the order of the source article (section 8, "how the
// patterns fit together"), each layer optional:
//
//	load shedding by priority   protect ourselves from our input   (package shed)
//	  bulkhead                  protect our pool                   (package bulkhead)
//	    circuit breaker         do not knock on a dead dependency  (package breaker)
//	      retry (+ budget)      repeat transient failures          (packages retry, budget)
//	        timeout             bound one attempt                  (package timeout)
//	          fn(ctx)
//
// and, around all of it, an optional fallback (package fallback) that answers
// from the degradation hierarchy when the path fails.
//
//   - Load shedding: the utilisation is the number of calls in flight through
//     the Caller over Config.ShedCapacity; the class is the context's
//     (WithPriority, default Normal). A shed call fails at once with outcome
//     Rejected and a *RejectedError carrying the status and Retry-After.
//   - Bulkhead: a semaphore bulkhead; a call that finds no slot waits at most
//     MaxWaitDuration (and never past its deadline), then fails fast with
//     BulkheadFull. The slot is held through all attempts and backoffs.
//   - Breaker: asked before every attempt, the first and each retry, and fed
//     the outcome and latency of every attempt. A refusal ends the call with
//     CircuitOpen, which is never retried: a breaker that opens between two
//     attempts stops the retries, and the breaker counts every failed attempt
//     rather than one per call.
//   - Retry: retry.Policy.DecideAfter decides, with a uniform variate from
//     Config.Rand and the Retry-After hint of a *RejectedError; the retry
//     budget (budget.Bucket) is asked only after the policy allowed the retry,
//     and every successful attempt deposits into it. The backoff is a Clock
//     timer that gives up when the context is done.
//   - Timeout: each attempt runs under a context whose deadline is the
//     earlier of now + the per-attempt timeout and the request's deadline.
//   - Deadline propagation: the context's deadline bounds every attempt and
//     every wait; Config.Deadline can shorten it to the call's slice (what is
//     left minus a reserve; at most 80 ms for a non-critical call). A call with
//     no time left is refused with DeadlineExceeded; a retry that cannot run a
//     full attempt before the deadline is not made (New copies the timeout
//     into retry.Config.AttemptTimeout for that check).
//
// An attempt is classified by its context first (done: Timeout, or Cancelled
// if the caller cancelled), then by Config.Classify (default Classify:
// *RejectedError is Rejected, context.DeadlineExceeded and net timeouts are
// Timeout, other errors are Error). Do returns nil or an *Error that says the
// outcome, the number of attempts and why no further attempt was made.
//
// Transport puts the same path under an http.RoundTripper: 429 and 503 are
// Rejected (Retry-After honoured), other 5xx and transport errors are Error,
// and only replayable requests (idempotent method or Idempotency-Key, and a
// body with GetBody) are retried.
//
// # Concurrency
//
// A Caller is safe for concurrent use. The policy values are not, so one
// mutex per Caller serialises every call into them; it is never held while
// fn, a fallback, an observer (OnBreakerTransition, OnFallbackAlert) or the
// base RoundTripper runs. The observers run in the goroutine of the call that
// caused the change. Bulkhead waiters are woken by channels, in FIFO order.
//
// # Determinism
//
// Wall-clock code is not deterministic, but everything it decides comes from
// the policies, fed the Clock's instants and the Rand's draws: with a
// ManualClock and a seeded Rand, a sequential test replays exactly.
package wall

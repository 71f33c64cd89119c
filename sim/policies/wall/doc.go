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
// applies, outside in, the order of «Устойчивость: circuit breaker, retry,
// bulkhead, backpressure, деградация» ("Resilience: circuit breaker, retry,
// bulkhead, backpressure, degradation"), section 8 ("Как паттерны
// собираются вместе", how the patterns fit together), each layer optional:
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
//     Config.BulkheadPool is the pool flavour instead: a fixed number of
//     calls at once and a queue bounded in length, each queued call waiting
//     until its deadline.
//   - Breaker: where it sits is Config.Placement, the experiment file's
//     placement key. OutsideRetry (the default, as in the simulator): one
//     permit before the first attempt and one record per call, with the
//     call's final outcome and its latency, retries included. InsideRetry:
//     asked before every attempt and fed every attempt's outcome, so that a
//     breaker that opens between two attempts stops the retries and three
//     failed attempts count three failures. Either way a refusal ends the
//     call with CircuitOpen, which is never retried.
//     RetriesOnly: Config.RetryBreaker instead (breaker.RetryGate, jirfag's
//     retry circuit breaker): fed every attempt's outcome, never asked for a
//     first attempt, and asked before each retry, which it denies with
//     retry.ReasonBreaker while the recent failure rate is too high.
//   - Retry: retry.Policy.DecideAfter decides, with a uniform variate from
//     Config.Rand and the Retry-After hint of a *RejectedError; the retry
//     budget (a budget.Quota: Config.Budget's bucket, Config.AWSQuota's AWS
//     SDK standard quota or Config.PerCallBudget's per-call bucket) is told
//     of each call's start, asked only after the policy allowed the retry
//     (paying by the failed attempt's outcome), and told of every successful
//     attempt with what it paid. Config.RetryConcurrency
//     adds Envoy's budget (budget.Concurrency): retries in flight at most a
//     share of the calls in flight through the Caller. The backoff is a Clock
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
// outcome, the number of attempts and why no further attempt was made; the
// generic Do[T] and DoFallback[T] return a typed value, and a typed degraded
// answer.
//
// # Errors and hooks
//
// Every refusal has a sentinel usable with errors.Is: ErrCircuitOpen,
// ErrBulkheadFull, ErrShed (our own load shedding), ErrRejected (the callee's
// 429/503), ErrBudgetExhausted, ErrLimited, ErrQueueTimeout, ErrNoHost,
// ErrKilled. An *Error wraps its cause at one level, and its message names
// the package once ("wall: circuit open"). Hooks (attempt start and end,
// breaker transitions, refusals by reason, limit changes, outlier events)
// are plain function fields, free when nil.
//
// # HTTP
//
// Transport puts the call path under an http.RoundTripper: 429 and 503 are
// Rejected (Retry-After honoured), other 5xx and transport errors are Error,
// and only replayable requests (idempotent method or Idempotency-Key, and a
// body with GetBody) are retried. WithBalancer spreads the attempts over
// several hosts, round robin, skipping those a Balancer's outlier detector
// (package outlier) has ejected; its interval sweep runs from a Clock timer
// until Balancer.Close.
//
// Server is the server side: Handler puts load shedding by priority, a
// concurrency cap (fixed, or adaptive with package limit's AIMD, Vegas or
// Gradient2) and a bounded wait queue served FIFO, by CoDel (package codel)
// or by adaptive LIFO (package lifo) in front of an http.Handler; refusals
// are 503 (or 429) with Retry-After when the policy gives one.
//
// Health runs readiness and liveness probes (package health) from the
// clock over checks the user supplies, and serves the verdicts as
// http.Handlers.
//
// # Hedging
//
// A Hedger runs package hedge around real calls: Do sends copies of fn as the
// policy says, each under its own child context, with Clock timers for the
// hedges and per-try timeouts, returns the first success (or the failure
// that ended the call), cancels the losers' contexts at once and waits for
// every copy to return, so that no goroutine outlives the call.
//
// # Concurrency
//
// A Caller, Server, Balancer, Health and Hedger are safe for concurrent use. The
// policy values are not, so one mutex per value serialises every call into
// them; it is never held while
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

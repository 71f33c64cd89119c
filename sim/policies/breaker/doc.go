// Package breaker implements a circuit breaker as a pure state machine with
// explicit time: states closed, open and half-open, a count-based or
// time-based sliding window, a minimum number of calls, failure-rate and
// slow-call-rate thresholds, a bounded number of half-open probes and an open
// pause that grows exponentially on repeated trips.
//
// # Source
//
// The pattern is Michael Nygard's (Release It!, 2nd ed.); the parameters and
// their names follow Resilience4j's CircuitBreakerConfig
// (failureRateThreshold, slowCallRateThreshold, slowCallDurationThreshold,
// permittedNumberOfCallsInHalfOpenState, minimumNumberOfCalls,
// slidingWindowType, slidingWindowSize, waitDurationInOpenState); the
// defaults are the numbers of the CircuitBreaker sketch in «Устойчивость:
// circuit breaker, retry, bulkhead, backpressure, деградация» ("Resilience:
// circuit breaker, retry, bulkhead, backpressure, degradation"), section 4:
// a window of the last 100 calls, no decision before 20 calls, open at 50 %
// failures, 3 half-open probes, an open pause of 15 s doubled on each
// consecutive trip and capped at 300 s. The article gives no slow-call
// numbers, so the slow-call defaults are Resilience4j's (100 %, 60 s).
//
// # Algorithm
//
// Closed: every call is admitted (Allow returns a Permit). Each result fed
// back through Record lands in the sliding window as a success, a failure or
// a slow success. Once the window holds at least MinimumNumberOfCalls calls
// (for a count-based window: min(MinimumNumberOfCalls, SlidingWindowSize)),
// the breaker trips to open when
//
//	failures*100 >= FailureRateThreshold * calls, or
//	slow     *100 >= SlowCallRateThreshold * calls.
//
// A failure is an outcome for which Config.IsFailure reports true (by
// default policies.Outcome.IsFailure: Error, Timeout, Rejected). A slow call
// is a non-failed call whose latency is strictly greater than
// SlowCallDurationThreshold. (Resilience4j also counts slow failed calls in
// the slow-call rate; here a failed call counts once, as a failure.) Local
// refusals (policies.Outcome.IsLocal: CircuitOpen, BulkheadFull,
// DeadlineExceeded, Cancelled) say nothing about the callee and are ignored.
//
// Open: Allow refuses every call until the open pause has elapsed. The pause
// after the n-th consecutive trip (n = 1, 2, ...) is
//
//	min(WaitDurationInOpenState * 2^(n-1), MaxWaitDurationInOpenState)
//
// so 15 s, 30 s, 60 s, 120 s, 240 s, 300 s, 300 s, ... with the defaults; n
// goes back to 0 when the breaker closes. (The Python sketch of the
// resilience article, section 4, increments n before computing the first
// pause, which makes its first pause 30 s; its prose gives no formula. This
// package makes WaitDurationInOpenState the first pause, as Resilience4j
// does, so the configured 15 s is the pause a first trip actually gets.)
// NextProbeAt reports the instant the pause ends so that the caller can
// schedule a refresh. The breaker owns no timer: the move from open to
// half-open happens lazily, at the first call to Allow, State or Refresh at
// or after that instant; only Refresh returns the Transition, so a caller
// that wants the event calls Refresh at NextProbeAt.
//
// Half-open: at most PermittedNumberOfCallsInHalfOpenState calls are
// admitted. A probe that fails, or succeeds slowly, re-opens the breaker
// (with a longer pause); when every admitted probe has succeeded the breaker
// closes and its window is cleared. A probe whose outcome is a local refusal
// gives its slot back, so that another probe may be admitted.
//
// Every permit must be given back through Record, with policies.Cancelled
// if the call was abandoned: an unreported half-open permit keeps its probe
// slot, and a breaker whose probes never report stays half-open.
//
// Force takes the decision from the state machine: ForcedOpen refuses
// every call with no open pause, ForcedClosed admits every call and
// records no result (it cannot trip), and Auto hands the breaker back
// closed, with an empty window and no consecutive trips (see Force).
//
// Every transition increments a generation counter. A Permit remembers the
// generation it was issued in, and Record ignores results whose permit
// predates the last transition: a slow call admitted while closed cannot
// close a half-open breaker, and a late failure cannot re-trip a breaker that
// has just opened.
//
// # Windows
//
// The count-based window is a ring of the last SlidingWindowSize outcomes
// with running counts, O(1) per call. The time-based window aggregates the
// calls of the last SlidingWindowSize seconds in one-second buckets (as
// Resilience4j's SlidingWindowType.TIME_BASED does): a call at instant t
// falls in bucket floor(t / 1s), and the window covers the current bucket and
// the SlidingWindowSize-1 before it. Config.Bucket narrows the buckets (one
// second stays the default) for sub-second windows: 200 buckets of 1 ms make
// a 200 ms window, the one of the retry circuit breaker in jirfag's
// simulations (see RetryGate). Both are allocation-free after New.
//
// # RetryGate: a breaker for retries only
//
// RetryGate is the "retry circuit breaker" of jirfag's simulations for the
// article "Good retry, bad retry" (github.com/jirfag/simulations,
// retry_strategies.py, RetryCircuitBreakerStrategy, at commit
// 746a5efcbf768470345dd5a0a5caee04faaa7bc3). It is simpler than the
// Breaker, so it is its own type rather than a Breaker setting: every
// attempt's outcome, first attempt or retry, enters a sliding time window
// (200 ms there); a first attempt is never refused; a retry is refused when
// the window is empty or when failures/attempts >= the threshold (10 %
// there). There is no open or half-open state, no open pause and no minimum
// number of calls: the rule is evaluated afresh at every retry, so retries
// resume as soon as the window's failure rate falls. His window is an exact
// deque (an outcome leaves when now - t >= 200 ms); RetryGate's is bucketed
// (1 ms buckets by default), so an outcome leaves up to one bucket early.
//
// # Time, determinism, concurrency
//
// Instants are time.Duration values since an arbitrary fixed origin (see
// package policies). Instants passed to one Breaker must not decrease; an
// earlier instant is treated as the latest one seen. A Breaker is not safe
// for concurrent use.
package breaker

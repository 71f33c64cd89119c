// Package limit implements adaptive concurrency limits: the number of calls
// allowed in flight at once is not a constant in a config file but is
// estimated from the latency and drops the caller observes, the way TCP
// congestion control estimates a window.
//
// # Why
//
// A fixed limit ("200 concurrent") is out of date after every deploy and
// every hardware change. By Little's law the concurrency a service can carry
// is throughput x latency; when latency grows because the service is
// saturated, in-flight work piles up and every caller waits longer. An
// adaptive limit notices the latency growth (or the drops) and lowers the
// limit, so excess work is rejected quickly instead of queueing until it
// times out; when latency is normal and the limit is the bottleneck, it
// probes upwards.
//
// # Structure
//
// As in github.com/Netflix/concurrency-limits and
// github.com/platinummonkey/go-concurrency-limits, the algorithm that
// estimates the limit is separate from the limiter that enforces it. An
// Algorithm takes samples through OnSample(now, rtt, inflight, dropped) and
// reports Limit(). Three algorithms are provided:
//
//   - AIMD: additive increase, multiplicative decrease, with the parameters
//     of the AIMDLimiter in «Устойчивость: circuit breaker, retry,
//     bulkhead, backpressure, деградация» ("Resilience: circuit breaker,
//     retry, bulkhead, backpressure, degradation"), section 6: initial limit 20, min 4, max 400;
//     on a drop or rtt > 250 ms the limit is multiplied by 0.9; when
//     in-flight >= 0.9 x limit it grows by 1/limit (about +1 per full
//     round of the limit). The limit is kept as a float64 internally.
//   - Gradient2: Netflix's Gradient2Limit. It compares a short-term RTT (the
//     last sample) with a long-term exponentially smoothed RTT and scales
//     the limit by the gradient, clamped to [0.5, 1], plus a fixed queue
//     allowance, smoothed.
//   - Vegas: Netflix's VegasLimit, after TCP Vegas. It estimates the queue
//     from rtt_noload (the minimum RTT seen) and adjusts the limit when the
//     queue is below alpha or above beta, thresholds that grow with
//     log10(limit).
//
// Windowed wraps any Algorithm so that it sees one aggregated sample per
// sampling window (mean RTT, largest in-flight count, any drop), as
// Netflix's WindowedLimit does. Vegas and Gradient2 are meant to run
// windowed: per call, they react to one congestion event once per call in
// flight and overshoot. AIMD, as section 6 of the resilience article writes
// it, runs per call.
//
// A Limiter enforces an Algorithm's limit: Acquire(now) admits a call
// unless in-flight >= limit, and Release(now, token, outcome) ends it, feeds
// the algorithm a sample and returns the Transition of the integer limit
// (From, To), so the caller can plot the limit over time.
//
// # Outcomes
//
// Release maps a policies.Outcome to a sample: Success gives a normal
// sample; Timeout and Rejected give a dropped sample (the overload signal);
// Error and every local outcome (CircuitOpen, BulkheadFull,
// DeadlineExceeded, Cancelled) release the slot without a sample, like
// Netflix's Listener.onIgnore, because they say nothing about the callee's
// queueing latency.
//
// # Units
//
// Instants and RTTs are time.Duration (see package policies: instants are
// measured from an arbitrary fixed origin). Limits are counts of
// concurrent calls.
//
// # Concurrency
//
// No type in this package is safe for concurrent use; package wall
// serialises access. Nothing here reads the clock, sleeps or starts
// goroutines. OnSample, Acquire and Release do not allocate.
//
// # Known behaviour
//
// AIMD per call cuts once per late call, so one congested round of L calls
// can cut the limit by 0.9^L: under unlimited demand it saws well below
// and slightly above capacity rather than holding steady. Gradient2's
// baseline is an average, not a minimum; under sustained saturation it
// follows the short-term RTT and the limit creeps up by about Smoothing x
// QueueSize per window until latency changes. Windowed Vegas settles at
// capacity plus a queue of alpha..beta calls. The tests in model_test.go
// show all three against a small service model.
package limit

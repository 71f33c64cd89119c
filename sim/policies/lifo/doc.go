// Package lifo implements adaptive LIFO with Facebook's controlled-delay
// queue timeouts, after Ben Maurer, "Fail at Scale: Reliability in the Face
// of Rapid Change", ACM Queue 13(8), 2015, and a generic, allocation-free
// double-ended request queue that supports both disciplines.
//
// # Why
//
// Under overload the oldest requests in a FIFO queue have usually been
// abandoned by their clients already: serving them first is work finished
// for nobody, while the fresh requests behind them time out in turn, and
// goodput collapses although the server is busy. «Устойчивость: circuit
// breaker, retry, bulkhead, backpressure, деградация» ("Resilience: circuit
// breaker, retry, bulkhead, backpressure, degradation"), section 6, after
// Fail at Scale, recommends FIFO in normal operation, which is fair, and
// LIFO under overload, which serves the requests that can still be saved. Fail at Scale combines it with its controlled-delay rule:
// if the queue has not been empty in the last N = 100 ms, a newly queued
// request gets a short queue timeout M = 5 ms, otherwise N; so a standing
// queue cannot build, and expired requests are dropped instead of served.
//
// # Pieces
//
//   - Queue[T] is a bounded ring-buffer deque of Entry[T] (a value, its
//     enqueue instant and its queue deadline). It pops from either end and
//     drops expired entries from the old end (PopExpired). It never
//     allocates after NewQueue.
//   - Policy holds the decisions: the queue timeout for a new request
//     (Fail at Scale's pseudocode: if lastEmptyTime < now - N then M else
//     N) and the Mode (FIFO or LIFO) to serve in. Under the Adaptive
//     discipline the mode is LIFO while the queue has not been empty for
//     Interval (N), or, if LIFOThreshold > 0, while it holds at least
//     LIFOThreshold requests.
//   - AdaptiveQueue[T] puts the two together for a service's queue:
//     Push(now, v, deadline) and Next(now), which answers Deliver,
//     Expired (drop this one and call again) or Empty.
//
// A queued request's deadline is the earlier of the deadline it carries
// (the propagated deadline of the whole request, or none) and now plus the
// controlled-delay timeout, when ControlledDelay is on.
//
// # Parameters and defaults
//
// Interval N = 100 ms and ShortTimeout M = 5 ms are the values given in
// Fail at Scale; Discipline Adaptive, ControlledDelay on and LIFOThreshold
// 0 (off) are this package's defaults.
//
// # Concurrency
//
// No type here is safe for concurrent use. Nothing reads the clock or
// starts goroutines; the caller passes now, which must not decrease.
package lifo

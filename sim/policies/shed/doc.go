// Package shed implements load shedding by priority class: as a service's
// queue or concurrency fills, it rejects requests bottom-up, Background
// first, then Normal, and Critical only when nothing is left, and every
// rejection carries an explicit status and a Retry-After hint.
//
// # Why
//
// The principle of backpressure in «Устойчивость: circuit breaker, retry,
// bulkhead, backpressure, деградация» ("Resilience: circuit breaker, retry,
// bulkhead, backpressure, degradation"), section 6, is that it is better to
// refuse a request explicitly (HTTP 429 or 503 with Retry-After) than to
// accept work that cannot finish: an accepted request that is never
// completed holds memory and a connection and its result is thrown away at
// the timeout anyway. Not all traffic is worth the same: requests are
// labelled critical (checkout, payment), normal, or background (prefetch,
// analytics, batch), the label travels with the request together with its
// deadline (policies.Priority), and under load the lowest class is dropped
// first (the Google SRE book's "criticality", chapter 21, Handling
// Overload).
//
// # Algorithm
//
// The caller measures utilisation u = used / capacity, where used is what
// fills up (in-flight requests, queued requests, or both) and capacity is
// its limit. A request of class p is admitted when u < Threshold[p], and
// shed otherwise. With the defaults a Background request is shed once half
// the capacity is in use, a Normal one at 80 %, and a Critical one only
// when the service is full. The thresholds must not increase from Critical
// down to Background, so shedding is always bottom-up: if a class is
// admitted, every more critical class is admitted too.
//
// A rejection is a Decision with Admitted false, the HTTP status to answer
// with (Status, default 503 Service Unavailable) and a Retry-After hint
// (RetryAfter, default 1 s, the smallest whole-second value of the HTTP
// header, RFC 9110 section 10.2.3). The caller reports it to its client as
// policies.Rejected.
//
// A Priority outside the three classes is treated as Background.
//
// # Counters
//
// A Shedder counts admitted and shed requests per class (Stats), so that
// a run can show which classes paid for an overload.
//
// # Concurrency
//
// A Shedder is not safe for concurrent use. It reads no clock and starts
// no goroutines; Admit does not allocate.
package shed

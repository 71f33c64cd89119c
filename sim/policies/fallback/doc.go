// Package fallback implements the degradation hierarchy of «Устойчивость:
// circuit breaker, retry, bulkhead, backpressure, деградация» ("Resilience:
// circuit breaker, retry, bulkhead, backpressure, degradation"), section 7:
// what to show while something is broken, level by level, with a
// kill switch and an alert for living on fallback too long.
//
// # Why
//
// Every other pattern answers "how not to break"; degradation answers
// "what to show while broken", the only part the business sees. The
// resilience article, section 7, orders the answers from best to worst:
//
//  1. Fresh: the normal answer.
//  2. Stale: data from a cache past its freshness lifetime, served because
//     the origin failed (stale-if-error, RFC 5861; proxy_cache_use_stale in
//     nginx). The most valuable fallback: users rarely notice.
//  3. Generic: non-personal data (top sellers instead of personal
//     recommendations, "in stock" instead of the exact count).
//  4. Empty: the block hidden or a placeholder, honestly marked as such;
//     never an empty answer that looks real ("0 items in your cart").
//  5. FeatureError: an explicit error for this feature, with a clear text
//     and a way to retry.
//  6. SystemError: the whole request fails; what every other level exists
//     to avoid.
//
// A fallback can fail too (it may share the broken cache, or be heavy), so
// a failed level moves on to the next available one. A fallback must be
// cheaper than the main path and share no resources with it; that is a
// property of the caller's code and is not checked here.
//
// # Algorithm
//
// Per request, Feature.Begin(now, cached) returns an Attempt at the first
// level to try: Fresh, or, when the feature is killed, the configured
// KilledLevel. Attempt.Fail moves to the next available level: Stale only
// if a cached value exists and its staleness (age - MaxAge) is at most
// MaxStale (RFC 5861: "stale-if-error=N" lets a stale response be used on
// error for N seconds after it becomes stale); Generic and Empty only if
// the feature has them; FeatureError and SystemError always. Once the
// caller has answered, Feature.Serve(now, attempt) counts the level and
// feeds the Tracker.
//
// A degraded answer is not a plain success: Level.Degraded reports Stale,
// Generic and Empty, Level.Failed reports FeatureError and SystemError, and
// the counters keep every level apart.
//
// # Kill switch
//
// Kill(now, reason) and Revive(now) turn the feature off and on without a
// deploy. Both are explicit and time-stamped, and return the new state as a
// KillChange value. A killed feature never calls its dependency: Begin
// starts at KilledLevel (default Empty, the block honestly hidden).
//
// # Alert
//
// The resilience article, section 9: if a dependency has been down for
// three weeks and nobody complains because the cache answers, that is not
// resilience but a silent failure; alert when a fallback has been in use for longer than N minutes.
// The Tracker counts answers in tumbling windows of Window (default 1 min).
// A window is degraded when at least DegradedRatio (default 0.5) of its
// answers were not Fresh; a window without answers leaves the state as it
// was. The alert is raised when consecutive degraded windows span at least
// AlertAfter (default 5 min), and cleared by the first window that is not
// degraded. Windows close when the caller records an answer or calls
// Check; NextCheckAt says when the current window ends, so the caller can
// schedule a Check if traffic stops. Changes come back as AlertChange
// values.
//
// # Defaults
//
// MaxAge 600 s and MaxStale 1200 s are the example of RFC 5861 section 4
// ("Cache-Control: max-age=600, stale-if-error=1200"). The resilience
// article gives no number for N; AlertAfter 5 min, Window 1 min and DegradedRatio 0.5 are
// this package's choices.
//
// # Concurrency
//
// No type here is safe for concurrent use. Nothing reads the clock or
// starts goroutines; Begin, Fail and Serve do not allocate.
package fallback

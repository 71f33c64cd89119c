// Package policies holds the vocabulary shared by ressim's resilience
// policies; each policy lives in a subpackage of its own (breaker, retry,
// budget, bulkhead, shed, codel, lifo, limit, fallback, outlier, health,
// deadline, timeout, hedge) and the wall-clock adapter in subpackage wall.
//
// # Conventions every policy follows
//
// Policies are pure state machines. They never read the clock, sleep, own
// timers or start goroutines, and they use only the standard library, so
// that the very same code runs inside the simulator (virtual time) and in a
// production Go service (through package wall).
//
// Time is passed in explicitly, in the style of golang.org/x/time/rate's
// AllowN(t, n). An instant is a time.Duration measured from an arbitrary,
// fixed origin on a monotonic clock: the simulator passes virtual time since
// the start of the run, package wall passes time.Since(origin). Only
// differences between instants are meaningful; instants passed to one policy
// value must never decrease.
//
// Randomness is passed in too, as a uniform variate u in [0, 1) or a
// *math/rand/v2.Rand owned by the caller, so that the simulator controls
// every draw.
//
// When a policy needs attention later (a breaker's half-open probe, a
// CoDel interval), it says when through a method such as NextProbeAt, and
// the caller schedules it: an engine event in the simulator, a time.Timer in
// production. State changes are returned as values, never fired as callbacks.
//
// Unless a type's documentation says otherwise, a policy value is not safe
// for concurrent use; package wall serialises access with a mutex.
//
// Every policy package declares
//
//	var ErrInvalidConfig = errors.New("<package>: invalid config")
//
// and every error its constructors return for a bad configuration wraps it,
// naming the field: "codel.New: codel: invalid config: Target 0s: must be
// positive". Test for it with errors.Is(err, codel.ErrInvalidConfig).
// Error strings start in lower case (the package name) and do not end in
// punctuation.
package policies

package limit

import "time"

// Algorithm estimates a concurrency limit from samples. Implementations in
// this package are AIMD, Gradient2 and Vegas.
type Algorithm interface {
	// OnSample records one completed call: now is the instant it ended,
	// rtt its round-trip time, inflight the number of calls in flight when
	// it was admitted (itself included), dropped whether it ended in an
	// overload signal (a timeout or a rejection by the callee).
	OnSample(now, rtt time.Duration, inflight int, dropped bool)
	// Limit returns the current limit: the number of calls that may be in
	// flight at once. It stays within the algorithm's configured bounds.
	Limit() int
}

// clamp returns x limited to [lo, hi].
func clamp(x, lo, hi float64) float64 {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}

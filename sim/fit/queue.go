package fit

import "math"

// erlangC returns the probability that an arrival waits in an M/M/c
// queue with c servers and offered load a Erlangs (a < c), by the
// Erlang B recursion B(k) = a B(k-1) / (k + a B(k-1)), which is stable
// for any c, and C = c B / (c - a (1 - B)) (Kleinrock, Queueing Systems
// vol. 1, 3.4). It returns 1 when a >= c: an overloaded pool always
// queues.
func erlangC(c int, a float64) float64 {
	if c <= 0 || a >= float64(c) {
		return 1
	}
	if a <= 0 {
		return 0
	}
	b := 1.0
	for k := 1; k <= c; k++ {
		b = a * b / (float64(k) + a*b)
	}
	return float64(c) * b / (float64(c) - a*(1-b))
}

// queueWait is the M/M/c approximation of a pool's queueing delay:
// zero with probability 1 - pw, else exponential with mean mean (in
// seconds): pw = C(c, a), mean = held / (c - a), since the conditional
// wait of M/M/c is exponential with rate c mu - lambda (Kleinrock 3.4).
// It is the known part of a service's latency the fit takes away before
// fitting the own work; for work that is not exponential it is the
// usual first approximation (Allen-Cunneen would scale the mean by
// (1 + scv)/2, which is not known before the fit).
func queueWait(c int, a, held float64) (pw, mean float64) {
	if c <= 0 || held <= 0 || a <= 0 {
		return 0, 0
	}
	if a >= float64(c) {
		return 1, math.Inf(1)
	}
	return erlangC(c, a), held / (float64(c) - a)
}

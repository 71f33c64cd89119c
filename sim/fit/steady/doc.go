// Package steady finds the steady-state part of a simulated or measured
// series of per-interval values (throughput per second, mean latency per
// minute, ...) and estimates its mean with a standard error.
//
// Window truncates the initial transient by MSER-5 (White 1997; White,
// Cobb and Spratt 2000): the series is cut into non-overlapping batches of
// 5 values, and the truncation point d (in batches) minimises the marginal
// standard error
//
//	MSER(d) = 1/(n-d)^2 * sum_{j>=d} (Z_j - mean(Z_d..Z_{n-1}))^2
//
// over the batch means Z. Mean then estimates the steady mean by the
// method of non-overlapping batch means, whose standard error accounts for
// the autocorrelation an ordinary sample standard deviation ignores.
//
// Values are in whatever unit the caller's series is in; the estimates
// are in the same unit. Both functions are pure and deterministic.
package steady

package analysis

import "math"

// Wilson returns the Wilson score 95 % confidence interval (Wilson 1927)
// for a binomial proportion with the given number of successes out of n
// trials, with z = Z95: for instance the probability that a variant locks
// in (stays down after the trigger ends), estimated from n replications.
// The bounds are fractions in [0, 1] and always contain successes/n.
//
// Conventions: n = 0 gives [0, 1] (no information); successes < 0,
// n < 0 or successes > n give NaN bounds (as math functions do for
// arguments outside their domain), for which Contains and ExcludesZero
// are false.
//
// Unlike the Wald interval p ± z√(p(1-p)/n) it never leaves [0, 1], is
// not degenerate at 0 or n successes, and its coverage stays close to
// 95 % for small n (Agresti & Coull 1998; Newcombe 1998).
func Wilson(successes, n int) Interval {
	if n < 0 || successes < 0 || successes > n {
		return nanInterval()
	}
	if n == 0 {
		return Interval{Lo: 0, Hi: 1}
	}
	p := float64(successes) / float64(n)
	lo := wilsonLower(successes, n)
	hi := 1 - wilsonLower(n-successes, n)
	// Guards against rounding only; the exact bounds satisfy them.
	return Interval{Lo: min(max(lo, 0), p), Hi: max(min(hi, 1), p)}
}

// wilsonLower returns the lower Wilson bound for x successes in n > 0
// trials. The bounds are the roots of (n+z²)p² - (2x+z²)p + x²/n = 0. The
// upper root is computed from its formula, a sum of non-negative terms,
// and the lower one as (x²/n)/((n+z²)·upper), the product of the roots
// divided by the upper root: no cancellation, and exactly 0 for x = 0.
func wilsonLower(x, n int) float64 {
	const z2 = Z95 * Z95
	fx, fn := float64(x), float64(n)
	upper := (fx + z2/2 + Z95*math.Sqrt(fx*(fn-fx)/fn+z2/4)) / (fn + z2)
	return fx / fn * fx / ((fn + z2) * upper)
}

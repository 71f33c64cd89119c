package analysis

import "math"

var posInf = math.Inf(1)

// Summary describes a sample of N replicated measurements of one metric,
// for instance the goodput of N runs of one experiment variant with
// different seeds. Mean, SD, SE and the bounds of CI95 are in the metric's
// unit.
//
// Conventions, chosen so that a Summary is NaN-free for finite input and
// never claims more than the data support:
//
//   - N = 0: Mean = SD = SE = 0, CI95 = (-Inf, +Inf), Defined = false.
//   - N = 1: Mean is the value, SD = SE = 0, CI95 = (-Inf, +Inf),
//     Defined = false. One replication says nothing about the spread, so
//     its interval excludes nothing, and CI95.ExcludesZero is false.
//   - N >= 2 and every value finite: Defined = true and no field is NaN.
//     SD, SE and the bounds are finite unless the values span more than
//     about 1e307, where a bound (Mean ± t·SE) or SD can exceed the
//     float64 range (1.8e308) and becomes ±Inf.
//   - any value NaN or ±Inf: Mean, SD, SE and both bounds are NaN and
//     Defined = false.
type Summary struct {
	// N is the number of values.
	N int
	// Mean is the arithmetic mean of the values.
	Mean float64
	// SD is the sample standard deviation, with the N-1 (Bessel)
	// denominator.
	SD float64
	// SE is the standard error of the mean, SD/√N.
	SE float64
	// CI95 is the two-sided 95 % Student-t confidence interval for the
	// mean: Mean ± t(0.975; N-1)·SE.
	CI95 Interval
	// Defined reports whether SD, SE and CI95 are estimates: N >= 2 and
	// every value finite.
	Defined bool
}

// Summarize returns the Summary of xs. It does not modify xs or allocate,
// and its result depends only on the values and their order.
//
// The mean and the sum of squared deviations are computed in two passes
// with the correction term of Chan, Golub & LeVeque (1983), after scaling
// the values by a power of two so that no intermediate overflows.
func Summarize(xs []float64) Summary { return summarize(xs, nil) }

// summarize summarizes xs, or the differences xs[i]-base[i] when base is
// not nil (then len(base) == len(xs)).
func summarize(xs, base []float64) Summary {
	n := len(xs)
	at := func(i int) float64 {
		if base != nil {
			return xs[i] - base[i]
		}
		return xs[i]
	}
	if n == 0 {
		return Summary{CI95: unbounded()}
	}
	// Pass 1: finiteness and range.
	lo, hi := posInf, math.Inf(-1)
	for i := range n {
		x := at(i)
		if math.IsNaN(x) || math.IsInf(x, 0) {
			nan := math.NaN()
			return Summary{N: n, Mean: nan, SD: nan, SE: nan, CI95: nanInterval()}
		}
		lo, hi = min(lo, x), max(hi, x)
	}
	if n == 1 {
		return Summary{N: 1, Mean: lo, CI95: unbounded()}
	}
	if lo == hi {
		// Identical values: exact results, no rounding.
		return Summary{N: n, Mean: lo, CI95: Interval{Lo: lo, Hi: lo}, Defined: true}
	}
	// Scale by 2^-e with max|x| < 2^e, exact for normal numbers, so that
	// sums cannot overflow: every scaled value is in (-1, 1).
	_, e := math.Frexp(max(-lo, hi))
	fn := float64(n)
	// Pass 2: mean.
	var sum float64
	for i := range n {
		sum += math.Ldexp(at(i), -e)
	}
	m := sum / fn
	// Pass 3: corrected two-pass sum of squares.
	var ss, c float64
	for i := range n {
		d := math.Ldexp(at(i), -e) - m
		ss += d * d
		c += d
	}
	v := (ss - c*c/fn) / (fn - 1)
	if v < 0 {
		v = 0
	}
	sd := math.Sqrt(v)
	se := sd / math.Sqrt(fn)
	half := TCritical95(n-1) * se
	mean := min(max(math.Ldexp(m, e), lo), hi)
	h := math.Ldexp(half, e)
	return Summary{
		N:       n,
		Mean:    mean,
		SD:      math.Ldexp(sd, e),
		SE:      math.Ldexp(se, e),
		CI95:    Interval{Lo: mean - h, Hi: mean + h},
		Defined: true,
	}
}

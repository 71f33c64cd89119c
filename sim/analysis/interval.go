package analysis

import "math"

// Interval is a closed interval [Lo, Hi] in the unit of the metric it
// bounds (seconds, requests per second, a fraction, ...): a confidence
// interval for a mean or a proportion.
//
// An interval that carries no information is (-Inf, +Inf) (see Summary);
// an interval computed from non-finite input has NaN bounds, and then
// Contains and ExcludesZero are false.
type Interval struct {
	// Lo is the lower bound, in the metric's unit.
	Lo float64
	// Hi is the upper bound, in the metric's unit; Hi >= Lo unless the
	// bounds are NaN.
	Hi float64
}

// unbounded is the interval that excludes nothing: the convention for a
// sample too small to estimate its spread.
func unbounded() Interval { return Interval{Lo: math.Inf(-1), Hi: math.Inf(1)} }

// nanInterval is the result of computing an interval from invalid input.
func nanInterval() Interval { return Interval{Lo: math.NaN(), Hi: math.NaN()} }

// Contains reports whether Lo <= x <= Hi. Both bounds are included. It is
// false when x or a bound is NaN.
func (iv Interval) Contains(x float64) bool { return iv.Lo <= x && x <= iv.Hi }

// ExcludesZero reports whether 0 lies outside the interval (Lo > 0 or
// Hi < 0). For the confidence interval of a paired difference this is the
// two-sided test, at the interval's level, that the variant differs from
// the base. It is false for an unbounded or NaN interval.
func (iv Interval) ExcludesZero() bool { return iv.Lo > 0 || iv.Hi < 0 }

// Width returns Hi - Lo in the metric's unit: +Inf for an unbounded
// interval, NaN for a NaN one.
func (iv Interval) Width() float64 { return iv.Hi - iv.Lo }

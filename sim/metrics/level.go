package metrics

import "math"

// Level is the time-weighted record of a piecewise-constant quantity: a
// queue length, the number of busy workers, the number of requests in a
// system. It integrates the value over virtual time (int64 nanoseconds) in
// a window that starts at the last Reset, giving the time average needed
// for Little's law (L = lambda * W) and for utilisation.
//
// Accuracy. Each step adds value*dt to the area. The product is split
// exactly into a float64 and its rounding error with math.FMA
// (TwoProduct), and both are added to a double-double accumulator hi + lo
// (TwoSum, then renormalised so that |lo| <= ulp(hi)/2). The accumulator
// thus carries about 106 significant bits: for a non-negative level each
// step adds a relative error of order 2^-104, so after n = 1e7 changes the
// area is within about 1e-24 relative, where a plain float64 sum is only
// bounded by n * 2^-53 ~ 1e-9 (6e-14 observed in the 1e7-change test).
// For an integer-valued level with integer nanosecond spans every partial
// result is an integer, and the area is exact while it stays below 2^100
// (value*ns). Area and Mean round the accumulator to float64 once, at the
// end (relative error 2^-53). Each step's dt is converted to float64, exact
// for spans below 2^53 ns (104 days). A level that changes sign loses
// accuracy relative to the integral of its absolute value instead.
//
// Instants passed to one Level must not decrease; an instant earlier than
// the last one is treated as the last one (no negative area is added).
//
// The zero Level has value 0 and a window starting at instant 0. A Level is
// not safe for concurrent use.
type Level struct {
	v        float64 // current value
	last     int64   // instant of the last change (or of the window start)
	start    int64   // start of the window
	hi, lo   float64 // area since start up to last, as the double-double hi + lo
	min, max float64 // extremes of the value within the window
}

// Set changes the value to v at instant now.
func (l *Level) Set(now int64, v float64) {
	l.advance(now)
	l.v = v
	if v > l.max {
		l.max = v
	}
	if v < l.min {
		l.min = v
	}
}

// Add changes the value by delta at instant now (Add(now, 1) when a request
// joins a queue, Add(now, -1) when it leaves).
func (l *Level) Add(now int64, delta float64) { l.Set(now, l.v+delta) }

// Value returns the current value.
func (l *Level) Value() float64 { return l.v }

// Start returns the instant at which the window began (the last Reset).
func (l *Level) Start() int64 { return l.start }

// Max returns the largest value held within the window, including the value
// at its start.
func (l *Level) Max() float64 { return l.max }

// Min returns the smallest value held within the window, including the value
// at its start.
func (l *Level) Min() float64 { return l.min }

// Area returns the integral of the value over the window up to now, in
// value*nanoseconds. It does not change the Level.
func (l *Level) Area(now int64) float64 {
	dt := now - l.last
	if dt <= 0 {
		return l.hi + l.lo
	}
	return sumProduct(l.hi, l.lo, l.v, float64(dt))
}

// Mean returns the time-weighted average of the value over the window up to
// now: Area(now) / (now - Start()). For an empty window (now <= Start())
// it returns the current value.
func (l *Level) Mean(now int64) float64 {
	el := now - l.start
	if el <= 0 {
		return l.v
	}
	return l.Area(now) / float64(el)
}

// Reset starts a new window at now, keeping the current value: the area
// restarts from 0, and Min and Max from the current value.
func (l *Level) Reset(now int64) {
	l.start, l.last = now, now
	l.hi, l.lo = 0, 0
	l.min, l.max = l.v, l.v
}

// advance adds the area of the current value from the last change to now.
func (l *Level) advance(now int64) {
	dt := now - l.last
	if dt <= 0 {
		return
	}
	l.hi, l.lo = addProduct(l.hi, l.lo, l.v, float64(dt))
	l.last = now
}

// addProduct returns the double-double (hi + lo) + a*b, renormalised.
// The product is split exactly by FMA (TwoProduct) and the sum by Knuth's
// TwoSum, as in Ogita, Rump and Oishi, "Accurate sum and dot product"
// (SIAM J. Sci. Comput., 2005), algorithm Dot2; the final FastTwoSum keeps
// |lo| <= ulp(hi)/2 so that lo never drifts.
func addProduct(hi, lo, a, b float64) (float64, float64) {
	p := a * b
	e := math.FMA(a, b, -p)
	s := hi + p
	bv := s - hi
	t := (hi - (s - bv)) + (p - bv)
	lo += t + e
	h := s + lo
	return h, lo - (h - s)
}

// sumProduct returns h + l where h, l = addProduct(hi, lo, a, b), with
// three operations fewer: addProduct's last step, FastTwoSum, splits the
// rounded sum h = fl(s + lo') from its exact error, and h + error rounds
// back to h, which is fl(s + lo') itself (TestSumProduct).
func sumProduct(hi, lo, a, b float64) float64 {
	p := a * b
	e := math.FMA(a, b, -p)
	s := hi + p
	bv := s - hi
	return s + (lo + ((hi - (s - bv)) + (p - bv) + e))
}

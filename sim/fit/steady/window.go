package steady

import (
	"errors"
	"fmt"
	"math"
)

// ErrNotSteady reports a series that shows no steady state: too short to
// judge (fewer than MinValues values) or whose MSER-5 truncation point
// falls in its last half, the usual sign that the run ended before the
// transient did.
var ErrNotSteady = errors.New("steady: series has no steady state")

// MinValues is the shortest series Window judges: two batches of 5.
const MinValues = 10

// batch is MSER-5's batch size.
const batch = 5

// Window picks the steady part of a series of per-interval values by
// MSER-5 (White 1997; batch means of 5): it returns [start, end) indices —
// end exclusive, end = len(values) — truncating the initial transient.
// start is a multiple of 5; values after the last whole batch are kept in
// the window though MSER-5 does not score them.
//
// The error wraps ErrNotSteady when there are fewer than MinValues values
// or when the statistic, searched over the first half of the batches,
// is smallest at d = n/2: a series still drifting at its end would
// otherwise be "steady" in its last few batches. A NaN or infinite value
// is an error too (not ErrNotSteady).
func Window(values []float64) (start, end int, err error) {
	if len(values) < MinValues {
		return 0, 0, fmt.Errorf("%w: %d values, need at least %d", ErrNotSteady, len(values), MinValues)
	}
	if err := checkFinite(values); err != nil {
		return 0, 0, err
	}
	n := len(values) / batch
	z := make([]float64, n)
	for j := range z {
		s := 0.0
		for _, v := range values[j*batch : (j+1)*batch] {
			s += v
		}
		z[j] = s / batch
	}
	// Suffix sums give each MSER(d) in O(1): sum of squared deviations =
	// S2 - S1^2/m over the m = n-d batches from d on.
	best, bestD := math.Inf(1), 0
	s1, s2 := 0.0, 0.0
	mser := make([]float64, n)
	for d := n - 1; d >= 0; d-- {
		s1 += z[d]
		s2 += z[d] * z[d]
		m := float64(n - d)
		ss := s2 - s1*s1/m
		if ss < 0 {
			ss = 0 // rounding
		}
		mser[d] = ss / (m * m)
	}
	// The search is restricted to the first half (d <= n/2), as in the
	// "MSER-5 restricted" rule (Hoad, Robinson and Davies 2011): in a
	// stationary series the statistic of the last few batches is noise
	// over a small m and would often win an unrestricted search. A
	// minimum on the boundary means the series still drifts there. Ties
	// go to the smaller d, keeping more data.
	half := n / 2
	for d := 0; d <= half; d++ {
		if mser[d] < best {
			best, bestD = mser[d], d
		}
	}
	if bestD == half {
		return 0, 0, fmt.Errorf("%w: MSER-5 is smallest at the half-way bound (%d of %d batches of %d): the series drifts", ErrNotSteady, bestD, n, batch)
	}
	return bestD * batch, len(values), nil
}

// checkFinite rejects NaN and infinite values, naming the first.
func checkFinite(values []float64) error {
	for i, v := range values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("steady: value %d is %v", i, v)
		}
	}
	return nil
}

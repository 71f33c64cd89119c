package binned

import (
	"errors"
	"fmt"
	"math"
)

// Bins is a histogram: Bounds are upper bounds in seconds ascending, the
// last may be +Inf; Counts[i] is the number of observations in
// (Bounds[i-1], Bounds[i]] (NOT cumulative), first bin from 0.
//
// Prometheus's cumulative "le" buckets become Bins by differencing.
type Bins struct {
	Bounds, Counts []float64
}

// MaxBins is the most bins Fit accepts.
const MaxBins = 1000

// ErrBins reports a histogram Fit cannot use.
var ErrBins = errors.New("binned: invalid bins")

// check validates a histogram and returns its total count: equal lengths,
// 1..MaxBins bins, bounds >= 0 strictly ascending with +Inf only last and
// at least one finite bound, counts finite and >= 0 with a positive total.
func check(bounds, counts []float64) (total float64, err error) {
	if len(bounds) != len(counts) {
		return 0, fmt.Errorf("%w: %d bounds but %d counts", ErrBins, len(bounds), len(counts))
	}
	if len(bounds) == 0 || len(bounds) > MaxBins {
		return 0, fmt.Errorf("%w: %d bins, need 1 to %d", ErrBins, len(bounds), MaxBins)
	}
	prev := math.Inf(-1)
	for i, b := range bounds {
		switch {
		case math.IsNaN(b) || b < 0:
			return 0, fmt.Errorf("%w: bound %d is %v, need >= 0", ErrBins, i, b)
		case b <= prev:
			return 0, fmt.Errorf("%w: bound %d (%v) is not above bound %d (%v)", ErrBins, i, b, i-1, prev)
		case math.IsInf(b, 1) && i != len(bounds)-1:
			return 0, fmt.Errorf("%w: bound %d is +Inf but not last", ErrBins, i)
		}
		prev = b
	}
	if math.IsInf(bounds[0], 1) {
		return 0, fmt.Errorf("%w: no finite bound", ErrBins)
	}
	for i, c := range counts {
		if math.IsNaN(c) || math.IsInf(c, 0) || c < 0 {
			return 0, fmt.Errorf("%w: count %d is %v, need finite and >= 0", ErrBins, i, c)
		}
		total += c
	}
	if !(total > 0) || math.IsInf(total, 0) {
		return 0, fmt.Errorf("%w: total count is %v, need > 0 and finite", ErrBins, total)
	}
	return total, nil
}

// infFactor places the +Inf bin: its observations are taken to lie at
// infFactor times the last finite bound. A histogram says nothing about
// how far beyond its last bound the tail goes; 1.5x is a modest guess
// that keeps moment estimates finite without inflating them much.
const infFactor = 1.5

// lastFinite returns the largest finite bound.
func lastFinite(bounds []float64) float64 {
	for i := len(bounds) - 1; i >= 0; i-- {
		if !math.IsInf(bounds[i], 1) {
			return bounds[i]
		}
	}
	return 0
}

// moments returns the histogram's mean and variance (seconds, seconds^2)
// from bin midpoints, the +Inf bin at infFactor times the last finite
// bound. The input must have passed check.
func moments(bounds, counts []float64) (mean, variance float64) {
	tail := infFactor * lastFinite(bounds)
	var n, s, s2 float64
	lo := 0.0
	for i, b := range bounds {
		x := (lo + b) / 2
		if math.IsInf(b, 1) {
			x = tail
		}
		n += counts[i]
		s += counts[i] * x
		s2 += counts[i] * x * x
		lo = b
	}
	mean = s / n
	variance = s2/n - mean*mean
	if variance < 0 {
		variance = 0
	}
	return mean, variance
}

package binned

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/dsp/fourier"
)

// Accuracy of the components' discretisation.
//
// The components are summed once per Fit, on a uniform grid of gridPoints
// points from 0 to the sum of their Upper extents: each is rounded to the
// nearest grid point (an unbiased error of at most h/2) and the sum is the
// convolution of the rounded masses, by FFT. That sum is then compressed
// into at most about maxAtoms atoms, each the mass-weighted mean of a run
// of consecutive grid points holding about 1/maxAtoms of the probability
// (a point holding more, like a queue wait's atom at 0, is an atom of its
// own). The observed total's CDF is then
//
//	F_T(b) = sum_a w_a F_X(b - c_a)
//
// with X's CDF in closed form, so X itself is never discretised and its
// parameters can be fitted without re-convolving. Replacing a run by its
// mean keeps the component's mean exact; the error in F_T is second order
// in the run's width where F_X is smooth and never above 1/maxAtoms in
// any case (the runs are disjoint and F_X is monotone). The tests check
// F_T against closed forms (a hypoexponential, an Erlang sum) to 1e-4.
const (
	gridPoints = 1 << 16
	maxAtoms   = 1024
	// maxExtent bounds the components' summed extent, seconds (~30000 years).
	maxExtent = 1e12
)

// atom is a point mass of the components' sum: w at c seconds.
type atom struct{ c, w float64 }

// convolver convolves two distributions on n grid points, folding any
// mass beyond the last point into it (the sum saturates at the grid's end,
// which is associative, so repeated convolutions lose nothing).
type convolver struct {
	n   int
	fft *fourier.FFT
	a   []float64
}

func newConvolver(n int) *convolver {
	return &convolver{n: n, fft: fourier.NewFFT(2 * n), a: make([]float64, 2*n)}
}

func (c *convolver) convolve(x, y []float64) []float64 {
	copy(c.a, x)
	clear(c.a[c.n:])
	fx := c.fft.Coefficients(nil, c.a)
	copy(c.a, y)
	clear(c.a[c.n:])
	fy := c.fft.Coefficients(nil, c.a)
	for i := range fx {
		fx[i] *= fy[i]
	}
	s := c.fft.Sequence(c.a, fx)
	out := make([]float64, c.n)
	scale := 1 / float64(2*c.n)
	for i := range s {
		v := math.Max(s[i]*scale, 0) // FFT rounding can go slightly negative
		if i < c.n {
			out[i] = v
		} else {
			out[c.n-1] += v
		}
	}
	return out
}

// composite sums the components and returns the sum's atoms (sorted by
// position, weights summing to 1), mean and variance (seconds, seconds^2).
// With no components it returns nil atoms.
func composite(comps []Component) (atoms []atom, mean, variance float64, err error) {
	if len(comps) == 0 {
		return nil, 0, 0, nil
	}
	extent := 0.0
	for i, c := range comps {
		if c == nil {
			return nil, 0, 0, fmt.Errorf("%w: component %d is nil", ErrComponent, i)
		}
		u := c.Upper()
		if !(u >= 0) || math.IsInf(u, 1) {
			if _, err := c.Masses(1, 1); err != nil {
				return nil, 0, 0, fmt.Errorf("component %d: %w", i, err)
			}
			return nil, 0, 0, fmt.Errorf("%w: component %d has extent %v s", ErrComponent, i, u)
		}
		extent += u
	}
	switch {
	case extent > maxExtent:
		return nil, 0, 0, fmt.Errorf("%w: components extend to %v s, above %v s", ErrComponent, extent, maxExtent)
	case extent == 0:
		return []atom{{0, 1}}, 0, 0, nil // every component is 0
	}
	h := extent / (gridPoints - 1)
	conv := newConvolver(gridPoints)
	var sum []float64
	for i, c := range comps {
		m, err := c.Masses(h, gridPoints)
		if err != nil {
			return nil, 0, 0, fmt.Errorf("component %d: %w", i, err)
		}
		if len(m) != gridPoints {
			return nil, 0, 0, fmt.Errorf("%w: component %d returned %d masses, want %d", ErrComponent, i, len(m), gridPoints)
		}
		if sum == nil {
			sum = m
		} else {
			sum = conv.convolve(sum, m)
		}
	}
	total := 0.0
	for _, m := range sum {
		if !(m >= 0) || math.IsInf(m, 1) {
			return nil, 0, 0, fmt.Errorf("%w: component masses are not probabilities", ErrComponent)
		}
		total += m
	}
	if !(total > 0) {
		return nil, 0, 0, fmt.Errorf("%w: component masses sum to %v", ErrComponent, total)
	}
	var w, wx float64
	quantum := 1.0 / maxAtoms
	for i, m := range sum {
		m /= total
		x := float64(i) * h
		mean += m * x
		variance += m * x * x
		if m == 0 {
			continue
		}
		w += m
		wx += m * x
		if w >= quantum {
			atoms = append(atoms, atom{wx / w, w})
			w, wx = 0, 0
		}
	}
	if w > 0 {
		atoms = append(atoms, atom{wx / w, w})
	}
	variance -= mean * mean
	return atoms, mean, math.Max(variance, 0), nil
}

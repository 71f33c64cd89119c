package binned

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// Component is a known, independent additive part of the observed latency
// (a queue wait, calls to callees) whose distribution is known; the fitted
// own work X is convolved with all components.
//
// A component is described to the fit by its mean, an upper extent and
// its discretisation on a uniform grid. Empirical, QueueWait and Repeat
// build the usual ones; other implementations must be deterministic and
// safe for concurrent use.
type Component interface {
	// Mean returns the component's mean in seconds.
	Mean() float64
	// Upper returns a time in seconds beyond which the component's
	// probability is negligible (below 1e-12), used to size the grid.
	// Invalid components return NaN.
	Upper() float64
	// Masses discretises the component on n >= 1 grid points i*h seconds
	// by rounding to the nearest point: element i is P((i-1/2)h < C <=
	// (i+1/2)h); element 0 also holds any mass at 0 and element n-1 all
	// the mass beyond. The elements sum to 1. It errors for invalid
	// parameters (of the component, h or n).
	Masses(h float64, n int) ([]float64, error)
}

// ErrComponent reports a component with invalid parameters.
var ErrComponent = errors.New("binned: invalid component")

// tailQuantile is the survival probability Upper aims for: an exponential
// tail is cut where exp(-x/mean) = 1e-12, at about 27.6 means.
const tailQuantile = 1e-12

// maxRepeat bounds Repeat's n.
const maxRepeat = 10000

// checkGrid validates Masses' arguments.
func checkGrid(h float64, n int) error {
	if !(h > 0) || math.IsInf(h, 1) || n < 1 {
		return fmt.Errorf("%w: grid of %d points spaced %v s", ErrComponent, n, h)
	}
	return nil
}

// massesFromCDF rounds a distribution given by its CDF onto the grid.
func massesFromCDF(cdf func(float64) float64, h float64, n int) []float64 {
	m := make([]float64, n)
	prev := 0.0
	for i := 0; i < n-1; i++ {
		f := cdf((float64(i) + 0.5) * h)
		m[i] = math.Max(f-prev, 0)
		prev = math.Max(prev, f)
	}
	m[n-1] = math.Max(1-prev, 0)
	return m
}

// empirical is a piecewise-uniform distribution from a histogram.
type empirical struct {
	bounds []float64 // finite bounds
	cum    []float64 // cum[i]: probability of (0, bounds[i]]
	tail   float64   // where the +Inf bin's probability sits, seconds
	mean   float64
	upper  float64
}

// Empirical returns a distribution from a histogram in the Bins
// convention (upper bounds in seconds ascending, the last may be +Inf;
// per-bin, not cumulative, counts): piecewise uniform inside each finite
// bin (the first from 0), and the +Inf bin's observations an atom at 1.5
// times the last finite bound — a histogram does not say how far its tail
// goes, and a modest 1.5x keeps the component's mean finite without
// inflating it much. The inputs are copied.
func Empirical(bounds, counts []float64) (Component, error) {
	total, err := check(bounds, counts)
	if err != nil {
		return nil, fmt.Errorf("empirical component: %w", err)
	}
	e := &empirical{}
	cum := 0.0
	for i, b := range bounds {
		cum += counts[i] / total
		if math.IsInf(b, 1) {
			break
		}
		e.bounds = append(e.bounds, b)
		e.cum = append(e.cum, math.Min(cum, 1))
		if counts[i] > 0 {
			e.upper = b
		}
	}
	e.tail = infFactor * lastFinite(bounds)
	if last := len(bounds) - 1; math.IsInf(bounds[last], 1) && counts[last] > 0 {
		e.upper = e.tail
	}
	e.mean, _ = moments(bounds, counts)
	return e, nil
}

func (e *empirical) Mean() float64  { return e.mean }
func (e *empirical) Upper() float64 { return e.upper }

func (e *empirical) cdf(x float64) float64 {
	if x < 0 {
		return 0
	}
	if x >= e.tail {
		return 1
	}
	i := sort.SearchFloat64s(e.bounds, x) // first bound >= x
	if i == len(e.bounds) {
		return e.cum[len(e.cum)-1]
	}
	lo, clo := 0.0, 0.0
	if i > 0 {
		lo, clo = e.bounds[i-1], e.cum[i-1]
	}
	if e.bounds[i] == x || e.bounds[i] == lo {
		return e.cum[i]
	}
	return clo + (e.cum[i]-clo)*(x-lo)/(e.bounds[i]-lo)
}

func (e *empirical) Masses(h float64, n int) ([]float64, error) {
	if err := checkGrid(h, n); err != nil {
		return nil, err
	}
	return massesFromCDF(e.cdf, h, n), nil
}

// queueWait is an atom at 0 and an exponential.
type queueWait struct{ pw, mean float64 }

// QueueWait returns the M/M/c waiting time: 0 with probability 1-pw, else
// exponential with the given mean in seconds (for M/M/c, pw is Erlang C
// and mean is 1/(c*mu - lambda)). pw must be in [0, 1] and mean finite
// and >= 0, else Fit reports ErrComponent.
func QueueWait(pw float64, mean float64) Component { return queueWait{pw, mean} }

func (q queueWait) valid() error {
	if !(q.pw >= 0 && q.pw <= 1) || !(q.mean >= 0) || math.IsInf(q.mean, 1) {
		return fmt.Errorf("%w: queue wait needs pw in [0, 1] and a finite mean >= 0, got pw %v mean %v s", ErrComponent, q.pw, q.mean)
	}
	return nil
}

func (q queueWait) Mean() float64 {
	if q.valid() != nil {
		return math.NaN()
	}
	return q.pw * q.mean
}

func (q queueWait) Upper() float64 {
	if q.valid() != nil {
		return math.NaN()
	}
	if q.pw == 0 {
		return 0
	}
	return -math.Log(tailQuantile) * q.mean
}

func (q queueWait) Masses(h float64, n int) ([]float64, error) {
	if err := q.valid(); err != nil {
		return nil, err
	}
	if err := checkGrid(h, n); err != nil {
		return nil, err
	}
	if q.pw == 0 || q.mean == 0 {
		m := make([]float64, n)
		m[0] = 1
		return m, nil
	}
	return massesFromCDF(func(x float64) float64 {
		return 1 - q.pw*math.Exp(-x/q.mean)
	}, h, n), nil
}

// repeat is n iid copies of c plus one more with probability q.
type repeat struct {
	c Component
	n int
	q float64
}

// Repeat returns the sum of n iid copies of c plus, with probability q,
// one more: a sequential fan-out of n+q calls on average. n must be in
// [0, 10000] and q in [0, 1], else Fit reports ErrComponent.
func Repeat(c Component, n int, q float64) Component { return repeat{c, n, q} }

func (r repeat) valid() error {
	if r.c == nil || r.n < 0 || r.n > maxRepeat || !(r.q >= 0 && r.q <= 1) {
		return fmt.Errorf("%w: repeat needs a component, n in [0, %d] and q in [0, 1], got n %d q %v", ErrComponent, maxRepeat, r.n, r.q)
	}
	return nil
}

func (r repeat) Mean() float64 {
	if r.valid() != nil {
		return math.NaN()
	}
	return (float64(r.n) + r.q) * r.c.Mean()
}

func (r repeat) Upper() float64 {
	if r.valid() != nil {
		return math.NaN()
	}
	copies := float64(r.n)
	if r.q > 0 {
		copies++
	}
	return copies * r.c.Upper()
}

func (r repeat) Masses(h float64, n int) ([]float64, error) {
	if err := r.valid(); err != nil {
		return nil, err
	}
	if err := checkGrid(h, n); err != nil {
		return nil, err
	}
	base, err := r.c.Masses(h, n)
	if err != nil {
		return nil, fmt.Errorf("repeated component: %w", err)
	}
	if len(base) != n {
		return nil, fmt.Errorf("%w: repeated component returned %d masses, want %d", ErrComponent, len(base), n)
	}
	c := newConvolver(n)
	// The extra copy with probability q: (1-q) * delta_0 + q * base.
	out := make([]float64, n)
	for i, m := range base {
		out[i] = r.q * m
	}
	out[0] += 1 - r.q
	// Binary exponentiation of base, convolving into out.
	pow := base
	for k := r.n; k > 0; k >>= 1 {
		if k&1 == 1 {
			out = c.convolve(out, pow)
		}
		if k > 1 {
			pow = c.convolve(pow, pow)
		}
	}
	return out, nil
}

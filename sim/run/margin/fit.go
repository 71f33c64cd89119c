package margin

import (
	"math"
	"slices"
)

// Count is the outcome of the replications at one trigger point: N runs,
// K of them locked in. G is the trigger on the fitting scale (its
// logarithm for a duration or a size, itself for a load).
type Count struct {
	G    float64
	N, K int
}

// Chi2Level95 is the 0.95 quantile of the chi-squared distribution with
// one degree of freedom: the likelihood-ratio cut-off of a 95 % profile
// interval.
const Chi2Level95 = 3.841458820694124

// Fit is a logistic dose-response curve fitted by maximum likelihood to
// (trigger, runs, locked-in) counts, parametrised by the threshold it is
// asked for:
//
//	logit P(locked in | g) = logit(Target) + Slope·(g − Theta)
//
// so that P reaches Target exactly at g = Theta. The slope is held to
// [0, MaxSlope]: a larger trigger never makes lock-in less likely.
type Fit struct {
	// Target is the probability the threshold is defined by.
	Target float64
	// Theta is the maximum-likelihood threshold, on the fitting scale.
	Theta float64
	// Slope is the maximum-likelihood slope at Theta.
	Slope float64
	// Lo and Hi bound the 95 % profile-likelihood interval of Theta: the
	// thresholds whose profile log-likelihood is within Chi2Level95/2 of
	// the maximum. They are clipped to the fitting range (Range).
	Lo, Hi float64
	// LoOpen and HiOpen say the interval reached the end of the fitting
	// range: the data do not bound it on that side.
	LoOpen, HiOpen bool
	// LogLik is the maximised log-likelihood.
	LogLik float64
	// Range is the thresholds considered: the points' span widened by
	// that span on each side.
	Range [2]float64
	// MaxSlope bounds the slope: 1000 divided by the points' span, steep
	// enough to be a step between any two points tried.
	MaxSlope float64

	counts []Count
}

// FitLogistic fits the curve to counts (at least one point with N > 0).
// It is deterministic: grids of fixed size, refined by bisection and
// golden-section search.
func FitLogistic(counts []Count, target float64) Fit {
	cs := slices.Clone(counts)
	gmin, gmax := math.Inf(1), math.Inf(-1)
	for _, c := range cs {
		gmin, gmax = math.Min(gmin, c.G), math.Max(gmax, c.G)
	}
	span := gmax - gmin
	if !(span > 0) {
		span = math.Max(math.Abs(gmin), 1)
	}
	f := Fit{Target: target, counts: cs, Range: [2]float64{gmin - span, gmax + span}, MaxSlope: 1000 / span}
	const grid = 2000
	ll := make([]float64, grid+1)
	best := 0
	for i := range ll {
		th := f.Range[0] + (f.Range[1]-f.Range[0])*float64(i)/grid
		ll[i], _ = f.profile(th)
		if ll[i] > ll[best] {
			best = i
		}
	}
	step := (f.Range[1] - f.Range[0]) / grid
	// Golden-section refinement around the best grid point.
	a, b := math.Max(f.Range[0], f.at(best)-step), math.Min(f.Range[1], f.at(best)+step)
	const phi = 0.6180339887498949
	for range 60 {
		c, d := b-phi*(b-a), a+phi*(b-a)
		lc, _ := f.profile(c)
		ld, _ := f.profile(d)
		if lc >= ld {
			b = d
		} else {
			a = c
		}
	}
	f.Theta = (a + b) / 2
	f.LogLik, f.Slope = f.profile(f.Theta)
	if ll[best] > f.LogLik {
		f.Theta = f.at(best)
		f.LogLik, f.Slope = f.profile(f.Theta)
	}
	cut := f.LogLik - Chi2Level95/2
	in := func(th float64) bool { l, _ := f.profile(th); return l >= cut }
	// Walk out from the maximum on the grid to the first point outside,
	// then bisect that edge.
	i := best
	for i > 0 && ll[i-1] >= cut {
		i--
	}
	if i == 0 {
		f.Lo, f.LoOpen = f.Range[0], true
	} else {
		f.Lo = bisect(f.at(i-1), math.Min(f.at(i), f.Theta), in)
	}
	j := best
	for j < grid && ll[j+1] >= cut {
		j++
	}
	if j == grid {
		f.Hi, f.HiOpen = f.Range[1], true
	} else {
		f.Hi = bisect(f.at(j+1), math.Max(f.at(j), f.Theta), in)
	}
	return f
}

// at is threshold grid point i.
func (f *Fit) at(i int) float64 {
	return f.Range[0] + (f.Range[1]-f.Range[0])*float64(i)/2000
}

// bisect narrows the edge between out (outside the region) and in (inside)
// to about 1e-9 of their distance, returning the inside end.
func bisect(out, inside float64, in func(float64) bool) float64 {
	for range 40 {
		m := (out + inside) / 2
		if in(m) {
			inside = m
		} else {
			out = m
		}
	}
	return inside
}

// P is the fitted probability of locking in at g.
func (f *Fit) P(g float64) float64 {
	return sigmoid(logit(f.Target) + f.Slope*(g-f.Theta))
}

// Band is the pointwise range of P(g) over every (threshold, slope)
// inside the 95 % likelihood region of the fit (log-likelihood within
// Chi2Level95/2 of the maximum): at P = Target its ends are exactly Lo and
// Hi, the threshold's interval. It is evaluated on fixed grids of
// thresholds and slopes.
func (f *Fit) Band(gs []float64) (lo, hi []float64) {
	lo, hi = make([]float64, len(gs)), make([]float64, len(gs))
	for i := range gs {
		lo[i], hi[i] = f.P(gs[i]), f.P(gs[i])
	}
	cut := f.LogLik - Chi2Level95/2
	const nt, nb = 240, 120
	bmin := f.MaxSlope * 1e-6
	for a := 0; a <= nt; a++ {
		th := f.Lo + (f.Hi-f.Lo)*float64(a)/nt
		for b := 0; b <= nb; b++ {
			s := bmin * math.Pow(f.MaxSlope/bmin, float64(b)/nb)
			if f.logLik(th, s) < cut {
				continue
			}
			for i, g := range gs {
				p := sigmoid(logit(f.Target) + s*(g-th))
				lo[i], hi[i] = math.Min(lo[i], p), math.Max(hi[i], p)
			}
		}
	}
	return lo, hi
}

// profile is the log-likelihood maximised over the slope at threshold
// th, and the slope that maximises it. For a fixed threshold the linear
// predictor is linear in the slope, so the log-likelihood is concave in
// it: a bracketed Newton iteration finds the maximum on [0, MaxSlope].
func (f *Fit) profile(th float64) (float64, float64) {
	c := logit(f.Target)
	// The derivative in s is sum (k - n p) (g - th); it decreases in s.
	d := func(s float64) (d1, d2 float64) {
		for _, x := range f.counts {
			u := x.G - th
			p := sigmoid(c + s*u)
			d1 += (float64(x.K) - float64(x.N)*p) * u
			d2 -= float64(x.N) * p * (1 - p) * u * u
		}
		return d1, d2
	}
	lo, hi := 0.0, f.MaxSlope
	if d1, _ := d(lo); d1 <= 0 {
		return f.logLik(th, lo), lo
	}
	if d1, _ := d(hi); d1 >= 0 {
		return f.logLik(th, hi), hi
	}
	s := f.MaxSlope * 1e-3
	for range 100 {
		d1, d2 := d(s)
		if d1 > 0 {
			lo = s
		} else {
			hi = s
		}
		next := s - d1/d2
		if !(next > lo && next < hi) || d2 == 0 {
			next = (lo + hi) / 2
		}
		if math.Abs(next-s) <= 1e-12*math.Max(1, s) || hi-lo <= 1e-12*math.Max(1, hi) {
			s = next
			break
		}
		s = next
	}
	return f.logLik(th, s), s
}

// logLik is the binomial log-likelihood of the counts at (th, s),
// leaving out the binomial coefficients.
func (f *Fit) logLik(th, s float64) float64 {
	c := logit(f.Target)
	var l float64
	for _, x := range f.counts {
		eta := c + s*(x.G-th)
		l += float64(x.K)*logSigmoid(eta) + float64(x.N-x.K)*logSigmoid(-eta)
	}
	return l
}

func sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// logSigmoid is log(sigmoid(x)), without overflow or cancellation.
func logSigmoid(x float64) float64 {
	if x >= 0 {
		return -math.Log1p(math.Exp(-x))
	}
	return x - math.Log1p(math.Exp(x))
}

func logit(p float64) float64 { return math.Log(p / (1 - p)) }

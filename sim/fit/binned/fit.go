package binned

import (
	"fmt"
	"math"
	"time"

	"github.com/ressim/ressim/sim/dist"
)

// Options tune Fit and Select.
type Options struct {
	// Components are the known additive parts of the observed latency.
	Components []Component
	// Families are the families Select tries; nil means DefaultFamilies.
	// Fit ignores it.
	Families []dist.Kind
	// FixedMean, when > 0, fixes the own work's mean (known from the
	// utilization law, say); only shape parameters are fitted. It must not
	// be negative.
	FixedMean time.Duration
}

// Result is one family fitted to a histogram.
type Result struct {
	// Params is the fitted family and parameters of the own work X (Mean
	// in the experiment's units, a time.Duration, as dist.New takes it).
	Params dist.Params
	// K is the number of free parameters: the mean unless fixed, plus
	// erlang's k, hyperexponential's scv or lognormal's sigma.
	K int
	// LogLik is the multinomial binned log-likelihood sum counts_i log P_i.
	LogLik float64
	// AIC is 2K - 2LogLik.
	AIC float64
	// ChiSq is Pearson's chi-square over the bins, adjacent bins merged
	// until each group expects at least 5 observations.
	ChiSq float64
	// DoF is the number of merged groups - 1 - K.
	DoF int
	// PValue is the chi-square upper tail at ChiSq with DoF degrees of
	// freedom; NaN when DoF < 1.
	PValue float64
	// MaxGap is the largest |observed CDF - fitted CDF| at the bounds.
	MaxGap float64
	// Expected are the fitted expected counts per original bin (same
	// length as Counts), of the whole observed latency (X + components).
	Expected []float64
}

// start is where the optimiser starts: X's mean (seconds) and SCV.
type start struct{ mean, scv float64 }

// prepare validates the input, sums the components and estimates X's
// starting moments.
func prepare(b Bins, opt Options) (*problem, start, error) {
	total, err := check(b.Bounds, b.Counts)
	if err != nil {
		return nil, start{}, err
	}
	if opt.FixedMean < 0 {
		return nil, start{}, fmt.Errorf("binned: fixed mean %v is negative", opt.FixedMean)
	}
	atoms, cMean, cVar, err := composite(opt.Components)
	if err != nil {
		return nil, start{}, err
	}
	pr := newProblem(b.Bounds, b.Counts, total, atoms)
	// Moments of X = T - components, floored so a component that explains
	// (nearly) everything still leaves a positive start.
	tMean, tVar := moments(b.Bounds, b.Counts)
	mean := math.Max(tMean-cMean, 0.1*tMean)
	if !(mean > 0) {
		mean = 1e-3
	}
	v := math.Max(tVar-cVar, 0.1*tVar)
	scv := math.Max(0.02, math.Min(100, v/(mean*mean)))
	if math.IsNaN(scv) { // overflowing moments of absurd bounds
		scv = 1
	}
	if opt.FixedMean > 0 {
		mean = opt.FixedMean.Seconds()
	}
	return pr, start{mean, scv}, nil
}

// Fit fits one family to the histogram by maximum likelihood, X convolved
// with opt.Components, and scores the fit. See the package documentation
// for the method.
func Fit(b Bins, kind dist.Kind, opt Options) (Result, error) {
	if err := supported(kind); err != nil {
		return Result{}, err
	}
	pr, st, err := prepare(b, opt)
	if err != nil {
		return Result{}, fmt.Errorf("fit %s: %w", kind, err)
	}
	return fitFamily(pr, st, kind, opt.FixedMean > 0), nil
}

// Optimiser budget: a first Nelder–Mead run from the moment estimate, and
// a second, finer one restarted from its end (a cheap guard against a
// simplex that collapsed early).
const (
	firstStep, firstEvals   = 0.3, 400
	secondStep, secondEvals = 0.05, 200
)

func fitFamily(pr *problem, st start, kind dist.Kind, fixed bool) Result {
	p := make([]float64, len(pr.bounds))
	// decode maps optimiser coordinates to a model; with a fixed mean the
	// mean is not among them.
	decode := func(theta []float64, k int) model {
		mean, rest := st.mean, theta
		if !fixed {
			mean, rest = clampExp(theta[0], minMean, maxMean), theta[1:]
		}
		switch kind {
		case dist.Hyperexponential:
			return newModel(kind, mean, 0, 1+clampExp(rest[0], minSCV1, maxSCV1), 0)
		case dist.Lognormal:
			return newModel(kind, mean, 0, 0, clampExp(rest[0], minSigma, maxSigma))
		}
		return newModel(kind, mean, k, 0, 0)
	}
	var theta0 []float64
	if !fixed {
		theta0 = append(theta0, math.Log(st.mean))
	}
	switch kind {
	case dist.Hyperexponential:
		theta0 = append(theta0, math.Log(math.Max(st.scv, 1.5)-1))
	case dist.Lognormal:
		theta0 = append(theta0, 0.5*math.Log(math.Log1p(st.scv)))
	}
	solve := func(k int, x0 []float64) ([]float64, float64) {
		obj := func(theta []float64) float64 { return -pr.logLik(decode(theta, k), p) / pr.total }
		x, _ := minimize(obj, x0, firstStep, firstEvals)
		return minimize(obj, x, secondStep, secondEvals)
	}
	var best model
	if kind == dist.Erlang {
		// Profile over k: fit the mean for each k from 1, each start from the
		// previous k's mean, and stop once the likelihood has fallen below
		// the best for two k in a row (the profile is unimodal in practice;
		// two guard against a flat step).
		bestF, falls := math.Inf(1), 0
		x := theta0
		for k := 1; k <= maxK && falls < 2; k++ {
			xk, f := solve(k, x)
			if f < bestF {
				bestF, best, falls = f, decode(xk, k), 0
			} else {
				falls++
			}
			x = xk
		}
		if math.IsInf(bestF, 1) {
			best = decode(theta0, 1)
		}
	} else {
		x, _ := solve(1, theta0)
		best = decode(x, 1)
	}
	r := Result{Params: best.params(), K: freeParams(kind, fixed)}
	r.LogLik = pr.logLik(best, p)
	r.AIC = 2*float64(r.K) - 2*r.LogLik
	r.Expected = make([]float64, len(p))
	for i := range p {
		r.Expected[i] = p[i] * pr.total
	}
	goodness(&r, pr.counts, p, pr.total)
	return r
}

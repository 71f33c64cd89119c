package binned

import (
	"fmt"
	"math"
	"time"

	"github.com/ressim/ressim/sim/dist"
	"gonum.org/v1/gonum/mathext"
)

// model is one member of a family, in seconds, with what its CDF needs
// precomputed.
type model struct {
	kind  dist.Kind
	mean  float64 // seconds
	k     int     // erlang
	scv   float64 // hyperexponential
	sigma float64 // lognormal
	// hyperexponential phases (balanced means, as package dist): p, m1, m2.
	p, m1, m2 float64
	mu        float64 // lognormal: ln(mean) - sigma^2/2
}

func newModel(kind dist.Kind, mean float64, k int, scv, sigma float64) model {
	m := model{kind: kind, mean: mean, k: k, scv: scv, sigma: sigma}
	switch kind {
	case dist.Hyperexponential:
		m.p = (1 + math.Sqrt((scv-1)/(scv+1))) / 2
		m.m1 = mean / (2 * m.p)
		m.m2 = mean / (2 * (1 - m.p))
	case dist.Lognormal:
		m.mu = math.Log(mean) - sigma*sigma/2
	}
	return m
}

// cdf returns P(X <= x) and P(X > x). The smaller of the two is computed
// directly and the other as its complement, so a far tail keeps its
// precision at the cost of one special function per call.
func (m model) cdf(x float64) (f, s float64) {
	if x <= 0 {
		return 0, 1
	}
	if math.IsInf(x, 1) {
		return 1, 0
	}
	switch m.kind {
	case dist.Exponential:
		f = -math.Expm1(-x / m.mean)
		return f, 1 - f
	case dist.Erlang:
		a, z := float64(m.k), float64(m.k)*x/m.mean
		if z > a {
			s = mathext.GammaIncRegComp(a, z)
			return 1 - s, s
		}
		f = mathext.GammaIncReg(a, z)
		return f, 1 - f
	case dist.Hyperexponential:
		e1, f1 := expPair(x / m.m1)
		e2, f2 := expPair(x / m.m2)
		return m.p*f1 + (1-m.p)*f2, m.p*e1 + (1-m.p)*e2
	case dist.Lognormal:
		z := (math.Log(x) - m.mu) / (m.sigma * math.Sqrt2)
		if z > 0 {
			s = math.Erfc(z) / 2
			return 1 - s, s
		}
		f = math.Erfc(-z) / 2
		return f, 1 - f
	}
	return math.NaN(), math.NaN()
}

// expPair returns exp(-t) and 1-exp(-t), each to full relative precision,
// with one call of exp or expm1.
func expPair(t float64) (e, oneMinus float64) {
	if t < math.Ln2 {
		oneMinus = -math.Expm1(-t)
		return 1 - oneMinus, oneMinus
	}
	e = math.Exp(-t)
	return e, 1 - e
}

// params returns the model as package dist's parameters (Mean in
// nanoseconds as a time.Duration, at least 1ns).
func (m model) params() dist.Params {
	ns := math.Round(m.mean * 1e9)
	ns = math.Max(1, math.Min(ns, float64(math.MaxInt64/2)))
	p := dist.Params{Kind: m.kind, Mean: time.Duration(ns)}
	switch m.kind {
	case dist.Erlang:
		p.K = m.k
	case dist.Hyperexponential:
		p.SCV = m.scv
	case dist.Lognormal:
		p.Sigma = m.sigma
	}
	return p
}

// Parameter ranges the fit searches, in the transformed coordinates the
// optimiser moves in (log mean, log(scv-1), log sigma). They keep every
// fitted model valid for dist.New.
const (
	minMean, maxMean   = 1e-9, 1e6 // seconds
	minSCV1, maxSCV1   = 1e-6, 1e6 - 1
	minSigma, maxSigma = 1e-3, 10
	maxK               = 50
)

// clampExp returns exp(t) limited to [lo, hi].
func clampExp(t, lo, hi float64) float64 {
	if math.IsNaN(t) {
		return lo
	}
	return math.Max(lo, math.Min(hi, math.Exp(t)))
}

// supported reports whether Fit knows the family.
func supported(kind dist.Kind) error {
	switch kind {
	case dist.Exponential, dist.Erlang, dist.Hyperexponential, dist.Lognormal:
		return nil
	}
	return fmt.Errorf("binned: family %s is not supported (want one of exponential, erlang, hyperexponential, lognormal)", kind)
}

// freeParams is a family's number of fitted parameters: the mean unless
// fixed, plus k, scv or sigma.
func freeParams(kind dist.Kind, fixedMean bool) int {
	n := 2
	if kind == dist.Exponential {
		n = 1
	}
	if fixedMean {
		n--
	}
	return n
}

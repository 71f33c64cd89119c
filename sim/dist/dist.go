package dist

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// Kind names a distribution family.
type Kind uint8

// The distribution families.
const (
	Constant Kind = iota + 1
	Exponential
	Erlang
	Hyperexponential
	Lognormal
	Uniform
	// Normal is a normal distribution truncated at zero by rejection.
	Normal
)

// kindNames is indexed by Kind.
var kindNames = [...]string{"", "constant", "exponential", "erlang", "hyperexponential", "lognormal", "uniform", "normal"}

// KindNames returns every family's name, in a fixed order, for error messages.
func KindNames() []string { return append([]string(nil), kindNames[1:]...) }

// String returns the family's name as written in experiment files.
func (k Kind) String() string {
	if k >= Constant && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// ParseKind returns the family with the given name.
func ParseKind(s string) (Kind, bool) {
	for k := Constant; int(k) < len(kindNames); k++ {
		if kindNames[k] == s {
			return k, true
		}
	}
	return 0, false
}

// Params are a distribution's parameters as written in an experiment file.
// Which fields are used depends on Kind: Mean for all but uniform, K for
// erlang, SCV for hyperexponential, Sigma for lognormal, Min and Max for
// uniform, SD for normal (whose Mean is that of the normal before it is
// truncated at zero).
type Params struct {
	Kind  Kind
	Mean  time.Duration
	K     int
	SCV   float64
	Sigma float64
	Min   time.Duration
	Max   time.Duration
	SD    time.Duration
}

// Dist is a validated distribution of durations.
type Dist struct {
	kind Kind
	mean float64 // ns
	k    int
	// hyperexponential: phase 1 with probability p and mean m1, else mean m2.
	p, m1, m2 float64
	// lognormal: the underlying normal's mu and sigma (of ln ns); normal:
	// the untruncated normal's mean and standard deviation (ns). One pair
	// for both keeps a Dist, copied at every Sample, as small as it was.
	mu, sigma float64
	lo, span  float64 // uniform, ns
}

// ErrParam reports an invalid distribution parameter.
var ErrParam = errors.New("invalid distribution parameter")

// maxK bounds erlang's k: sampling costs k exponential draws.
const maxK = 1000

// New validates p and returns the distribution.
func New(p Params) (Dist, error) {
	d := Dist{kind: p.Kind, mean: float64(p.Mean)}
	needMean := func() error {
		if p.Mean <= 0 {
			return fmt.Errorf("%w: %s needs mean > 0, got %v", ErrParam, p.Kind, p.Mean)
		}
		return nil
	}
	switch p.Kind {
	case Constant:
		if p.Mean < 0 {
			return Dist{}, fmt.Errorf("%w: constant needs mean >= 0, got %v", ErrParam, p.Mean)
		}
	case Exponential:
		if err := needMean(); err != nil {
			return Dist{}, err
		}
	case Erlang:
		if err := needMean(); err != nil {
			return Dist{}, err
		}
		if p.K < 1 || p.K > maxK {
			return Dist{}, fmt.Errorf("%w: erlang needs k in [1, %d], got %d", ErrParam, maxK, p.K)
		}
		d.k = p.K
	case Hyperexponential:
		if err := needMean(); err != nil {
			return Dist{}, err
		}
		if !(p.SCV >= 1) || math.IsInf(p.SCV, 0) || p.SCV > 1e6 {
			return Dist{}, fmt.Errorf("%w: hyperexponential needs scv in [1, 1e6], got %v", ErrParam, p.SCV)
		}
		// Balanced means (Whitt; Allen 1990): p*m1 = (1-p)*m2 = mean/2,
		// p = (1 + sqrt((scv-1)/(scv+1))) / 2.
		d.p = (1 + math.Sqrt((p.SCV-1)/(p.SCV+1))) / 2
		d.m1 = d.mean / (2 * d.p)
		d.m2 = d.mean / (2 * (1 - d.p))
	case Lognormal:
		if err := needMean(); err != nil {
			return Dist{}, err
		}
		if !(p.Sigma > 0) || p.Sigma > 10 {
			return Dist{}, fmt.Errorf("%w: lognormal needs sigma in (0, 10], got %v", ErrParam, p.Sigma)
		}
		d.sigma = p.Sigma
		d.mu = math.Log(d.mean) - p.Sigma*p.Sigma/2
	case Uniform:
		if p.Min < 0 || p.Max < p.Min {
			return Dist{}, fmt.Errorf("%w: uniform needs 0 <= min <= max, got min %v max %v", ErrParam, p.Min, p.Max)
		}
		d.lo, d.span = float64(p.Min), float64(p.Max-p.Min)
		d.mean = d.lo + d.span/2
	case Normal:
		if err := needMean(); err != nil {
			return Dist{}, err
		}
		if p.SD < 0 {
			return Dist{}, fmt.Errorf("%w: normal needs sd >= 0, got %v", ErrParam, p.SD)
		}
		d.mu, d.sigma = float64(p.Mean), float64(p.SD)
		d.mean, _ = truncNormalMoments(d.mu, d.sigma)
	default:
		return Dist{}, fmt.Errorf("%w: unknown distribution kind %d", ErrParam, p.Kind)
	}
	return d, nil
}

// Must is New for parameters known to be valid (tests, examples); it
// panics on an error.
func Must(p Params) Dist {
	d, err := New(p)
	if err != nil {
		panic(err)
	}
	return d
}

// Kind returns the family.
func (d Dist) Kind() Kind { return d.kind }

// Mean returns the distribution's mean.
func (d Dist) Mean() time.Duration { return time.Duration(d.mean) }

// SCV returns the squared coefficient of variation, Var/Mean^2.
func (d Dist) SCV() float64 {
	switch d.kind {
	case Constant:
		return 0
	case Exponential:
		return 1
	case Erlang:
		return 1 / float64(d.k)
	case Hyperexponential:
		// E[S^2] = 2*(p*m1^2 + (1-p)*m2^2).
		es2 := 2 * (d.p*d.m1*d.m1 + (1-d.p)*d.m2*d.m2)
		return es2/(d.mean*d.mean) - 1
	case Lognormal:
		return math.Expm1(d.sigma * d.sigma)
	case Uniform:
		if d.mean == 0 {
			return 0
		}
		return d.span * d.span / 12 / (d.mean * d.mean)
	case Normal:
		_, v := truncNormalMoments(d.mu, d.sigma)
		return v / (d.mean * d.mean)
	}
	return 0
}

// Sample draws one duration using rng.
func (d Dist) Sample(rng *rand.Rand) time.Duration { return d.Draw(rng) }

// Draw is Sample without copying the Dist: a call of Sample passes its
// 88 bytes by value, which a model's event loop (a draw per work step)
// need not pay. The draws are Sample's.
func (d *Dist) Draw(rng *rand.Rand) time.Duration {
	var x float64
	switch d.kind {
	case Constant:
		return time.Duration(d.mean)
	case Exponential:
		x = rng.ExpFloat64() * d.mean
	case Erlang:
		m := d.mean / float64(d.k)
		for i := 0; i < d.k; i++ {
			x += rng.ExpFloat64() * m
		}
	case Hyperexponential:
		if rng.Float64() < d.p {
			x = rng.ExpFloat64() * d.m1
		} else {
			x = rng.ExpFloat64() * d.m2
		}
	case Lognormal:
		x = math.Exp(d.mu + d.sigma*rng.NormFloat64())
	case Uniform:
		x = d.lo + d.span*rng.Float64()
	case Normal:
		x = d.sampleNormal(rng)
	}
	return Duration(x)
}

// Duration rounds x nanoseconds to a Duration as the draws do, saturating
// at about 292 years rather than overflowing.
func Duration(x float64) time.Duration {
	if x >= math.MaxInt64/2 {
		return math.MaxInt64 / 2
	}
	return time.Duration(x + 0.5)
}

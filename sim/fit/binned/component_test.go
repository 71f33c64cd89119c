package binned

import (
	"errors"
	"math"
	"testing"

	"github.com/ressim/ressim/sim/dist"
	"gonum.org/v1/gonum/mathext"
)

// accuracy is how close the components' numerical sum must come to a
// closed form: the documented worst case is 1/maxAtoms ~ 1e-3, the
// second-order error for smooth CDFs far less.
const accuracy = 1e-4

// X exponential (mean 30ms) plus two exponential queue waits (pw 1, means
// 10ms and 50ms) is hypoexponential with three distinct rates:
// F(t) = 1 - sum_i prod_{j != i} l_j/(l_j - l_i) exp(-l_i t).
func TestCompositeHypoexponential(t *testing.T) {
	means := []float64{0.030, 0.010, 0.050}
	atoms, _, _, err := composite([]Component{QueueWait(1, means[1]), QueueWait(1, means[2])})
	if err != nil {
		t.Fatal(err)
	}
	pr := newProblem(nil, nil, 0, atoms)
	x := newModel(dist.Exponential, means[0], 0, 0, 0)
	for _, tt := range []float64{0.005, 0.02, 0.05, 0.1, 0.2, 0.5} {
		want := 1.0
		for i, mi := range means {
			term := math.Exp(-tt / mi)
			for j, mj := range means {
				if j != i {
					li, lj := 1/mi, 1/mj
					term *= lj / (lj - li)
				}
			}
			want -= term
		}
		f, s := pr.cdf(x, tt)
		if math.Abs(f-want) > accuracy || math.Abs(f+s-1) > 1e-12 {
			t.Errorf("F(%v) = %.6f (S %.6f), want %.6f", tt, f, s, want)
		}
	}
}

// Repeat(exponential mean m, 3, 0) plus X erlang(k 2, mean 2m) is
// erlang(k 5, mean 5m); and with q: Repeat(., 2, 0.5) + X mixes erlang 4
// and 5 half and half.
func TestCompositeErlangSum(t *testing.T) {
	const m = 0.02
	gam := func(k int, tt float64) float64 { return mathext.GammaIncReg(float64(k), tt/m) }
	x := newModel(dist.Erlang, 2*m, 2, 0, 0)
	for _, c := range []struct {
		comp Component
		want func(float64) float64
	}{
		{Repeat(QueueWait(1, m), 3, 0), func(tt float64) float64 { return gam(5, tt) }},
		{Repeat(QueueWait(1, m), 2, 0.5), func(tt float64) float64 { return (gam(4, tt) + gam(5, tt)) / 2 }},
	} {
		atoms, mean, _, err := composite([]Component{c.comp})
		if err != nil {
			t.Fatal(err)
		}
		if e := relErr(mean, c.comp.Mean()); e > 1e-3 {
			t.Errorf("grid mean %v, component mean %v", mean, c.comp.Mean())
		}
		pr := newProblem(nil, nil, 0, atoms)
		for _, tt := range []float64{0.02, 0.05, 0.1, 0.2, 0.4} {
			if f, _ := pr.cdf(x, tt); math.Abs(f-c.want(tt)) > accuracy {
				t.Errorf("F(%v) = %.6f, want %.6f", tt, f, c.want(tt))
			}
		}
	}
}

// An empirical component built from an exponential's fine histogram has
// the exponential's mean and CDF (up to the bin width).
func TestEmpirical(t *testing.T) {
	var bounds, counts []float64
	const m, w = 0.01, 0.0005
	for x := w; x <= 0.2; x += w {
		bounds = append(bounds, x)
		counts = append(counts, 1e6*(math.Exp(-(x-w)/m)-math.Exp(-x/m)))
	}
	bounds = append(bounds, math.Inf(1))
	counts = append(counts, 1e6*math.Exp(-bounds[len(bounds)-2]/m))
	c, err := Empirical(bounds, counts)
	if err != nil {
		t.Fatal(err)
	}
	if e := relErr(c.Mean(), m); e > 0.01 {
		t.Errorf("mean %v, want %v", c.Mean(), m)
	}
	e := c.(*empirical)
	for _, x := range []float64{0.001, 0.01, 0.03} {
		if got, want := e.cdf(x), 1-math.Exp(-x/m); math.Abs(got-want) > 2e-3 {
			t.Errorf("F(%v) = %v, want %v", x, got, want)
		}
	}
	// The +Inf bin sits at 1.5 times the last finite bound: half the mass
	// uniform on (0, 0.1], half at 0.15, mean 0.1.
	c, err = Empirical([]float64{0.1, math.Inf(1)}, []float64{1, 1})
	if err != nil || math.Abs(c.Mean()-0.1) > 1e-12 || math.Abs(c.Upper()-0.15) > 1e-12 {
		t.Errorf("+Inf bin: mean %v upper %v err %v, want 0.1, 0.15", c.Mean(), c.Upper(), err)
	}
	if _, err := Empirical([]float64{1, 2}, []float64{0, 0}); !errors.Is(err, ErrBins) {
		t.Errorf("empty histogram: %v", err)
	}
}

func TestInvalidComponents(t *testing.T) {
	b := Bins{Bounds: []float64{0.01, 0.1, math.Inf(1)}, Counts: []float64{5, 10, 1}}
	for _, c := range []Component{
		QueueWait(-0.1, 0.01), QueueWait(0.5, math.NaN()), QueueWait(0.5, math.Inf(1)),
		Repeat(nil, 1, 0), Repeat(QueueWait(1, 0.01), -1, 0), Repeat(QueueWait(1, 0.01), 1, 2),
		Repeat(QueueWait(2, 0.01), 1, 0), nil,
	} {
		if _, err := Fit(b, dist.Exponential, Options{Components: []Component{c}}); !errors.Is(err, ErrComponent) {
			t.Errorf("%#v: err %v, want ErrComponent", c, err)
		}
	}
}

// T = X + W + C with X lognormal (mean 50ms, sigma 0.6), W an M/M/c wait
// (pw 0.3, mean 20ms) and C one call to a callee whose latency (erlang k 2,
// mean 30ms) is known only as a histogram. The fit must recover X's mean
// within 5%: X carries half of T's mean, so 5% of it is 2.5% of T's —
// room for the callee histogram's piecewise-uniform approximation while
// still failing if a component were ignored (that would be off by 100%).
func TestFitWithComponents(t *testing.T) {
	const n = 100000
	xp := dist.Params{Kind: dist.Lognormal, Mean: ms(50), Sigma: 0.6}
	xs := draw(xp, n, 11)
	callee := draw(dist.Params{Kind: dist.Erlang, Mean: ms(30), K: 2}, n, 12)
	callee2 := draw(dist.Params{Kind: dist.Erlang, Mean: ms(30), K: 2}, n, 13)
	waits := draw(dist.Params{Kind: dist.Exponential, Mean: ms(20)}, n, 14)
	u := draw(dist.Params{Kind: dist.Uniform, Max: 1e9}, n, 15)
	ts := make([]float64, n)
	for i := range ts {
		ts[i] = xs[i] + callee[i]
		if u[i] < 0.3 {
			ts[i] += waits[i]
		}
	}
	// The callee's histogram comes from other observations than the ones
	// summed into T, as it would in a real system. Its buckets grow by
	// 2^(1/4): with x2 buckets the piecewise-uniform reading of a
	// decreasing density overstates this callee's mean by 8% (32.5ms), and
	// that error lands on X.
	ch := bin(nativeBuckets(), callee2)
	emp, err := Empirical(ch.Bounds, ch.Counts)
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Components: []Component{QueueWait(0.3, 0.020), Repeat(emp, 1, 0)}}
	r, err := Fit(bin(expBuckets(), ts), dist.Lognormal, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v chi2 %.1f dof %d p %.3g gap %.4f", r.Params, r.ChiSq, r.DoF, r.PValue, r.MaxGap)
	if e := relErr(float64(r.Params.Mean), float64(xp.Mean)); e > 0.05 {
		t.Errorf("X mean %v, want %v (%.1f%% off)", r.Params.Mean, xp.Mean, 100*e)
	}
	if e := relErr(r.Params.Sigma, xp.Sigma); e > 0.15 {
		t.Errorf("X sigma %v, want %v", r.Params.Sigma, xp.Sigma)
	}
	sum := 0.0
	for _, e := range r.Expected {
		sum += e
	}
	if len(r.Expected) != len(expBuckets()) || relErr(sum, n) > 1e-6 {
		t.Errorf("expected counts: %d bins summing to %v", len(r.Expected), sum)
	}
}

package binned

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/dist"
)

func TestFitRejectsBadBins(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	cases := []struct {
		name string
		b    Bins
		want string
	}{
		{"mismatched", Bins{[]float64{1, 2}, []float64{1}}, "2 bounds but 1 counts"},
		{"empty", Bins{}, "0 bins"},
		{"too many", Bins{make([]float64, MaxBins+1), make([]float64, MaxBins+1)}, "1001 bins"},
		{"not ascending", Bins{[]float64{1, 1, inf}, []float64{1, 1, 1}}, "not above"},
		{"descending", Bins{[]float64{2, 1}, []float64{1, 1}}, "not above"},
		{"nan bound", Bins{[]float64{nan, 1}, []float64{1, 1}}, "need >= 0"},
		{"negative bound", Bins{[]float64{-1, 1}, []float64{1, 1}}, "need >= 0"},
		{"inf not last", Bins{[]float64{1, inf, inf}, []float64{1, 1, 1}}, "+Inf but not last"},
		{"only inf", Bins{[]float64{inf}, []float64{1}}, "no finite bound"},
		{"negative count", Bins{[]float64{1, inf}, []float64{-1, 2}}, "count 0"},
		{"nan count", Bins{[]float64{1, inf}, []float64{nan, 2}}, "count 0"},
		{"zero total", Bins{[]float64{1, inf}, []float64{0, 0}}, "total count"},
	}
	for _, c := range cases {
		_, err := Fit(c.b, dist.Exponential, Options{})
		if !errors.Is(err, ErrBins) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want ErrBins mentioning %q", c.name, err, c.want)
		}
	}
	ok := Bins{[]float64{0.01, inf}, []float64{3, 1}}
	if _, err := Fit(ok, dist.Uniform, Options{}); err == nil {
		t.Error("uniform family: no error")
	}
	if _, err := Fit(ok, dist.Exponential, Options{FixedMean: -time.Second}); err == nil {
		t.Error("negative fixed mean: no error")
	}
	if _, _, err := Select(ok, Options{Families: []dist.Kind{}}); err == nil {
		t.Error("no families: no error")
	}
}

// With the mean fixed at the truth only the shape is fitted: the result
// keeps the mean, counts one parameter fewer, and finds sigma.
func TestFixedMean(t *testing.T) {
	p := dist.Params{Kind: dist.Lognormal, Mean: ms(80), Sigma: 1}
	b := bin(promBuckets(), draw(p, 50000, 3))
	r, err := Fit(b, dist.Lognormal, Options{FixedMean: p.Mean})
	if err != nil {
		t.Fatal(err)
	}
	if r.Params.Mean != p.Mean || r.K != 1 {
		t.Fatalf("mean %v K %d, want %v and 1", r.Params.Mean, r.K, p.Mean)
	}
	if e := relErr(r.Params.Sigma, 1); e > shapeTol {
		t.Fatalf("sigma %v, want 1", r.Params.Sigma)
	}
	r, err = Fit(b, dist.Exponential, Options{FixedMean: p.Mean})
	if err != nil || r.K != 0 || r.Params.Mean != p.Mean {
		t.Fatalf("exponential with fixed mean: %+v %v", r, err)
	}
}

// Prometheus's default buckets are coarse (11 bounds over 3.3 decades) but
// still identify a lognormal and its mean with 50k observations.
func TestPrometheusDefaultBuckets(t *testing.T) {
	p := dist.Params{Kind: dist.Lognormal, Mean: ms(120), Sigma: 0.6}
	best, _, err := Select(bin(promBuckets(), draw(p, 50000, 5)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if best.Params.Kind != dist.Lognormal || relErr(float64(best.Params.Mean), float64(p.Mean)) > meanTol {
		t.Fatalf("best %+v, want %+v", best.Params, p)
	}
}

// A histogram whose last bound is finite lost what lay beyond it; the fit
// conditions on it and still finds the mean (the exponential's mean is
// 40ms, the last bound 64ms cuts off 20% of it).
func TestFiniteLastBound(t *testing.T) {
	p := dist.Params{Kind: dist.Exponential, Mean: ms(40)}
	all := bin(expBuckets(), draw(p, 50000, 9))
	b := Bins{Bounds: all.Bounds[:8], Counts: all.Counts[:8]} // up to 64ms
	r, err := Fit(b, dist.Exponential, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if relErr(float64(r.Params.Mean), float64(p.Mean)) > meanTol {
		t.Fatalf("mean %v, want %v", r.Params.Mean, p.Mean)
	}
}

// Fit is deterministic: the same input gives bit-identical results.
func TestDeterministic(t *testing.T) {
	b := bin(expBuckets(), draw(dist.Params{Kind: dist.Hyperexponential, Mean: ms(10), SCV: 3}, 20000, 4))
	opt := Options{Components: []Component{QueueWait(0.2, 0.005)}}
	r1, _, err := Select(b, opt)
	if err != nil {
		t.Fatal(err)
	}
	r2, _, _ := Select(b, opt)
	if r1.Params != r2.Params || r1.LogLik != r2.LogLik {
		t.Fatalf("two runs differ: %+v vs %+v", r1, r2)
	}
}

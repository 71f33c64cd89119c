package dist

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// TestMoments checks each family's sample mean and SCV against theory.
// With n = 4e5 draws the standard error of the sample mean is
// sqrt(SCV/n) relative, at most sqrt(9/4e5) = 0.47 % here, so a 2.5 %
// tolerance is over 5 standard errors; the SCV estimate is noisier (it
// depends on the fourth moment), hence a looser 10 % (lognormal sigma 1
// has heavy tails: 20 %).
func TestMoments(t *testing.T) {
	const n = 400000
	ms := time.Millisecond
	tests := []struct {
		p       Params
		wantSCV float64
		scvTol  float64
	}{
		{Params{Kind: Constant, Mean: 10 * ms}, 0, 0},
		{Params{Kind: Exponential, Mean: 10 * ms}, 1, 0.1},
		{Params{Kind: Erlang, Mean: 10 * ms, K: 4}, 0.25, 0.1},
		{Params{Kind: Hyperexponential, Mean: 10 * ms, SCV: 4}, 4, 0.1},
		{Params{Kind: Hyperexponential, Mean: 10 * ms, SCV: 1}, 1, 0.1},
		{Params{Kind: Lognormal, Mean: 10 * ms, Sigma: 0.5}, math.Expm1(0.25), 0.1},
		{Params{Kind: Lognormal, Mean: 10 * ms, Sigma: 1}, math.Expm1(1), 0.2},
		{Params{Kind: Uniform, Min: 5 * ms, Max: 15 * ms}, 100.0 / 12 / 100, 0.1},
		// Normal: the exact SCV of the truncated normal, by numerical
		// integration (sd = mean/10 is barely truncated: SCV 0.01).
		{Params{Kind: Normal, Mean: 10 * ms, SD: ms}, scvNormal(10, 1), 0.1},
		{Params{Kind: Normal, Mean: 10 * ms, SD: 10 * ms}, scvNormal(10, 10), 0.1},
		{Params{Kind: Normal, Mean: 10 * ms, SD: 30 * ms}, scvNormal(10, 30), 0.1},
	}
	for _, tt := range tests {
		d, err := New(tt.p)
		if err != nil {
			t.Fatalf("%v: %v", tt.p.Kind, err)
		}
		if got := d.SCV(); math.Abs(got-tt.wantSCV) > 1e-9*max(1, tt.wantSCV) {
			t.Errorf("%v.SCV() = %v, want %v", tt.p.Kind, got, tt.wantSCV)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		var sum, sum2 float64
		for i := 0; i < n; i++ {
			x := float64(d.Sample(rng))
			if x < 0 {
				t.Fatalf("%v: negative sample %v", tt.p.Kind, x)
			}
			sum += x
			sum2 += x * x
		}
		mean := sum / n
		scv := (sum2/n - mean*mean) / (mean * mean)
		if want := float64(d.Mean()); math.Abs(mean-want)/want > 0.025 {
			t.Errorf("%v(%+v): sample mean %v, want %v ± 2.5 %%", tt.p.Kind, tt.p, mean, want)
		}
		if tt.scvTol == 0 {
			if scv > 1e-12 {
				t.Errorf("%v: sample SCV %v, want 0", tt.p.Kind, scv)
			}
		} else if math.Abs(scv-tt.wantSCV) > tt.scvTol*tt.wantSCV {
			t.Errorf("%v(%+v): sample SCV %v, want %v ± %v %%", tt.p.Kind, tt.p, scv, tt.wantSCV, 100*tt.scvTol)
		}
	}
}

func TestInvalid(t *testing.T) {
	ms := time.Millisecond
	bad := []Params{
		{Kind: 0, Mean: ms},
		{Kind: 99, Mean: ms},
		{Kind: Constant, Mean: -1},
		{Kind: Exponential, Mean: 0},
		{Kind: Exponential, Mean: -ms},
		{Kind: Erlang, Mean: ms, K: 0},
		{Kind: Erlang, Mean: ms, K: 1001},
		{Kind: Hyperexponential, Mean: ms, SCV: 0.5},
		{Kind: Hyperexponential, Mean: ms, SCV: math.NaN()},
		{Kind: Hyperexponential, Mean: ms, SCV: math.Inf(1)},
		{Kind: Lognormal, Mean: ms, Sigma: 0},
		{Kind: Lognormal, Mean: ms, Sigma: -1},
		{Kind: Lognormal, Mean: ms, Sigma: math.NaN()},
		{Kind: Uniform, Min: -1, Max: ms},
		{Kind: Uniform, Min: 2 * ms, Max: ms},
		{Kind: Normal, Mean: 0, SD: ms},
		{Kind: Normal, Mean: -ms, SD: ms},
		{Kind: Normal, Mean: ms, SD: -1},
	}
	for _, p := range bad {
		if _, err := New(p); !errors.Is(err, ErrParam) {
			t.Errorf("New(%+v) err = %v, want ErrParam", p, err)
		}
	}
}

func TestKindNames(t *testing.T) {
	for _, n := range KindNames() {
		k, ok := ParseKind(n)
		if !ok || k.String() != n {
			t.Errorf("ParseKind(%q) = %v, %v", n, k, ok)
		}
	}
	if _, ok := ParseKind("gamma"); ok {
		t.Error("ParseKind accepted gamma")
	}
	if Kind(0).String() != "unknown" {
		t.Error("Kind(0) should print as unknown")
	}
}

func TestHugeValuesSaturate(t *testing.T) {
	d := Must(Params{Kind: Lognormal, Mean: time.Duration(math.MaxInt64 / 4), Sigma: 10})
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 1000; i++ {
		if x := d.Sample(rng); x < 0 {
			t.Fatalf("sample overflowed to %v", x)
		}
	}
}

func BenchmarkSample(b *testing.B) {
	for _, p := range []Params{
		{Kind: Exponential, Mean: time.Millisecond},
		{Kind: Lognormal, Mean: time.Millisecond, Sigma: 1},
	} {
		d := Must(p)
		rng := rand.New(rand.NewPCG(1, 2))
		b.Run(p.Kind.String(), func(b *testing.B) {
			b.ReportAllocs()
			var s time.Duration
			for i := 0; i < b.N; i++ {
				s += d.Sample(rng)
			}
			_ = s
		})
	}
}

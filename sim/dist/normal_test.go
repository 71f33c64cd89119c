package dist

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// scvNormal is the SCV of N(mu, sd^2) truncated at zero, by numerical
// integration (see integrateTruncNormal), independent of the closed form.
func scvNormal(mu, sd float64) float64 {
	m0, m1, m2 := integrateTruncNormal(mu, sd)
	mean := m1 / m0
	return (m2/m0 - mean*mean) / (mean * mean)
}

// integrateTruncNormal returns the integrals over [0, mu + 12 sd] of the
// normal density times 1, x and x^2, by Simpson's rule on 2e5 intervals;
// the tail beyond 12 sd weighs below 1e-32 and Simpson's error on a smooth
// integrand at this step is below 1e-12 relative.
func integrateTruncNormal(mu, sd float64) (m0, m1, m2 float64) {
	const n = 200000
	hi := mu + 12*sd
	h := hi / n
	for i := 0; i <= n; i++ {
		x := float64(i) * h
		w := 2.0
		switch {
		case i == 0 || i == n:
			w = 1
		case i%2 == 1:
			w = 4
		}
		f := math.Exp(-(x-mu)*(x-mu)/(2*sd*sd)) / (sd * math.Sqrt(2*math.Pi))
		m0 += w * f
		m1 += w * f * x
		m2 += w * f * x * x
	}
	return m0 * h / 3, m1 * h / 3, m2 * h / 3
}

// TestTruncNormalMoments checks the closed-form truncated moments against
// numerical integration, from barely truncated (mu = 10 sd) to mostly
// truncated (mu = sd/3), to 1e-9 relative: far above the quadrature's error
// and far below any sampling tolerance.
func TestTruncNormalMoments(t *testing.T) {
	for _, tt := range []struct{ mu, sd float64 }{{10, 1}, {3, 1}, {1, 1}, {1, 3}, {1, 10}} {
		m0, m1, m2 := integrateTruncNormal(tt.mu, tt.sd)
		wantMean := m1 / m0
		wantVar := m2/m0 - wantMean*wantMean
		mean, v := truncNormalMoments(tt.mu, tt.sd)
		if math.Abs(mean-wantMean) > 1e-9*wantMean || math.Abs(v-wantVar) > 1e-9*wantVar {
			t.Errorf("N(%v, %v^2) truncated at 0: mean %v var %v, integration gives %v and %v",
				tt.mu, tt.sd, mean, v, wantMean, wantVar)
		}
	}
	// A value computed by hand: sd = mu gives lambda = phi(1)/Phi(1) =
	// 0.24197/0.84134 = 0.28760.
	if mean, _ := truncNormalMoments(1, 1); math.Abs(mean-1.28760) > 1e-5 {
		t.Errorf("mean of N(1, 1) truncated at 0 = %v, want 1.28760", mean)
	}
}

// TestNormalRejectsRatherThanClamps checks the shape near zero. With
// mean = sd, clamping would put Phi(-1) = 15.9 % of the samples at exactly
// zero; the truncated density at zero is phi(1)/(sd Phi(1)) = 0.2876/sd,
// so about 0.29 % of samples fall below 0.01 sd. With n = 1e5 the count's
// standard deviation is sqrt(290) = 17, so 1 % (1000) is a bound over 40
// standard deviations above the truncated shape's and far below clamping's.
func TestNormalRejectsRatherThanClamps(t *testing.T) {
	const n = 100000
	d := Must(Params{Kind: Normal, Mean: 10 * time.Millisecond, SD: 10 * time.Millisecond})
	rng := rand.New(rand.NewPCG(5, 6))
	low := 0
	for i := 0; i < n; i++ {
		x := d.Sample(rng)
		if x < 0 {
			t.Fatalf("negative sample %v", x)
		}
		if x < 100*time.Microsecond {
			low++
		}
	}
	if low > n/100 {
		t.Errorf("%d of %d samples below 0.01 sd: mass piles up at zero", low, n)
	}
	if low < 100 {
		t.Errorf("only %d of %d samples below 0.01 sd, want about 290", low, n)
	}
}

func TestNormalZeroSDIsConstant(t *testing.T) {
	d := Must(Params{Kind: Normal, Mean: 7 * time.Millisecond})
	rng := rand.New(rand.NewPCG(1, 1))
	if d.Mean() != 7*time.Millisecond || d.SCV() != 0 || d.Sample(rng) != 7*time.Millisecond {
		t.Errorf("normal with sd 0: mean %v scv %v", d.Mean(), d.SCV())
	}
}

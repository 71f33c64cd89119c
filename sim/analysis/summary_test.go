package analysis

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat"
)

func TestSummarize(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	tests := []struct {
		name string
		xs   []float64
		want Summary
	}{
		{"nil", nil, Summary{CI95: Interval{-inf, inf}}},
		{"empty", []float64{}, Summary{CI95: Interval{-inf, inf}}},
		{"one value", []float64{42.5}, Summary{N: 1, Mean: 42.5, CI95: Interval{-inf, inf}}},
		{"one zero", []float64{0}, Summary{N: 1, CI95: Interval{-inf, inf}}},
		{"identical values", []float64{0.1, 0.1, 0.1}, Summary{N: 3, Mean: 0.1, CI95: Interval{0.1, 0.1}, Defined: true}},
		// Two values 0 and 1: SD = 1/√2, SE = 1/2, half-width t(0.975;1)/2.
		{"0 and 1", []float64{0, 1}, Summary{
			N: 2, Mean: 0.5, SD: math.Sqrt2 / 2, SE: 0.5,
			CI95:    Interval{0.5 - 12.706204736174704646/2, 0.5 + 12.706204736174704646/2},
			Defined: true,
		}},
		// R: t.test(sleep$extra[1:10]): mean 0.75, 95 % CI
		// -0.5297804 2.0297804; values to 17 digits from mpmath.
		{"sleep group 1 (R t.test)", sleep1, Summary{
			N: 10, Mean: 0.75, SD: 1.7890096577591624, SE: 0.56573452745572773,
			CI95:    Interval{-0.52978041352623256, 2.0297804135262326},
			Defined: true,
		}},
		// 1..5 by hand: mean 3, variance 10/4 = 2.5,
		// SD √2.5, SE √0.5, half-width t(0.975;4)·√0.5.
		{"1..5", []float64{1, 2, 3, 4, 5}, Summary{
			N: 5, Mean: 3, SD: math.Sqrt(2.5), SE: math.Sqrt(0.5),
			CI95:    Interval{3 - 2.7764451051977943578*math.Sqrt(0.5), 3 + 2.7764451051977943578*math.Sqrt(0.5)},
			Defined: true,
		}},
		// Large offset: naive sum of squares would cancel catastrophically.
		{"1e9+1..5", []float64{1e9 + 1, 1e9 + 2, 1e9 + 3, 1e9 + 4, 1e9 + 5}, Summary{
			N: 5, Mean: 1e9 + 3, SD: math.Sqrt(2.5), SE: math.Sqrt(0.5),
			CI95:    Interval{1e9 + 3 - 2.7764451051977943578*math.Sqrt(0.5), 1e9 + 3 + 2.7764451051977943578*math.Sqrt(0.5)},
			Defined: true,
		}},
		// Near the float64 limit: no overflow in the sums.
		{"±1e308", []float64{-1e308, 1e308}, Summary{
			N: 2, Mean: 0, SD: math.Sqrt2 * 1e308, SE: 1e308,
			CI95:    Interval{-inf, inf}, // 12.7e308 overflows: the spread itself is out of range
			Defined: true,
		}},
		{"1e308 twice and 0", []float64{1e308, 1e308, 0}, Summary{
			N: 3, Mean: 2e308 / 3, SD: 1e308 / math.Sqrt(3), SE: 1e308 / 3,
			CI95:    Interval{2e308/3 - 4.3026527297494638523*1e308/3, inf}, // Hi = 2.1e308 overflows
			Defined: true,
		}},
		{"NaN", []float64{1, nan, 3}, Summary{N: 3, Mean: nan, SD: nan, SE: nan, CI95: Interval{nan, nan}}},
		{"+Inf", []float64{1, 2, inf}, Summary{N: 3, Mean: nan, SD: nan, SE: nan, CI95: Interval{nan, nan}}},
		{"-Inf alone", []float64{-inf}, Summary{N: 1, Mean: nan, SD: nan, SE: nan, CI95: Interval{nan, nan}}},
	}
	const tol = 1e-14
	for _, tt := range tests {
		got := Summarize(tt.xs)
		if got.N != tt.want.N || got.Defined != tt.want.Defined ||
			!near(got.Mean, tt.want.Mean, tol) || !near(got.SD, tt.want.SD, tol) ||
			!near(got.SE, tt.want.SE, tol) ||
			!near(got.CI95.Lo, tt.want.CI95.Lo, tol) || !near(got.CI95.Hi, tt.want.CI95.Hi, tol) {
			t.Errorf("%s: Summarize(%v)\n got %+v\nwant %+v", tt.name, tt.xs, got, tt.want)
		}
	}
}

// TestSummarizeConventionsNeverSignificant: a sample too small to have a
// spread estimate, or with non-finite values, never excludes zero.
func TestSummarizeConventionsNeverSignificant(t *testing.T) {
	for _, xs := range [][]float64{nil, {5}, {-5}, {1e300}, {math.NaN(), 1}, {math.Inf(1), 1}} {
		s := Summarize(xs)
		if s.Defined || s.CI95.ExcludesZero() {
			t.Errorf("Summarize(%v) = %+v: Defined or ExcludesZero, want neither", xs, s)
		}
	}
}

// TestSummarizeAgainstGonum cross-checks Mean, SD and SE with gonum's
// stat.MeanStdDev (the same corrected two-pass algorithm, unscaled) on
// random samples of several sizes. At the magnitudes 1e±200 gonum's
// squares under- or overflow (SD 0, +Inf or NaN), so there the reference
// is gonum on the unscaled sample, multiplied back.
func TestSummarizeAgainstGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{2, 3, 5, 10, 30, 100, 1000} {
		for _, scale := range []float64{1e-200, 1e-3, 1, 1e6, 1e200} {
			u, xs := make([]float64, n), make([]float64, n)
			for i := range xs {
				u[i] = 100 + r.NormFloat64()
				xs[i] = scale * u[i]
			}
			got := Summarize(xs)
			mean, sd := stat.MeanStdDev(u, nil)
			mean, sd = mean*scale, sd*scale
			if !near(got.Mean/scale, mean/scale, 1e-14) || !near(got.SD/scale, sd/scale, 1e-12) {
				t.Errorf("n=%d scale=%g: Mean, SD = %v, %v; gonum %v, %v", n, scale, got.Mean, got.SD, mean, sd)
			}
			if se := sd / math.Sqrt(float64(n)); !near(got.SE/scale, se/scale, 1e-12) {
				t.Errorf("n=%d scale=%g: SE = %v, want %v", n, scale, got.SE, se)
			}
			half := TCritical95(n-1) * got.SE
			if !near(got.CI95.Width()/scale, 2*half/scale, 1e-12) {
				t.Errorf("n=%d scale=%g: width %v, want %v", n, scale, got.CI95.Width(), 2*half)
			}
		}
	}
}

// TestSummarizeCoverage checks that the interval covers the true mean of
// normal data about 95 % of the time: 4000 samples of size 5, so the
// count has standard deviation √(4000·0.95·0.05) ≈ 13.8; the bounds are
// ±5 standard deviations. The generator is seeded: the test is
// deterministic.
func TestSummarizeCoverage(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const trials, n, mu = 4000, 5, 10.0
	xs := make([]float64, n)
	covered := 0
	for range trials {
		for i := range xs {
			xs[i] = mu + 2*r.NormFloat64()
		}
		if Summarize(xs).CI95.Contains(mu) {
			covered++
		}
	}
	if covered < 3800-69 || covered > 3800+69 {
		t.Errorf("covered %d of %d, want 3800 ± 69", covered, trials)
	}
}

func TestSummarizeDoesNotModify(t *testing.T) {
	xs := []float64{3, 1, 2}
	Summarize(xs)
	if xs[0] != 3 || xs[1] != 1 || xs[2] != 2 {
		t.Errorf("Summarize modified its input: %v", xs)
	}
}

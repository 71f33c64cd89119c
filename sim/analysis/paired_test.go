package analysis

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func TestPaired(t *testing.T) {
	tests := []struct {
		name          string
		base, variant []float64
		want          Summary
	}{
		// R: t.test(sleep$extra[11:20], sleep$extra[1:10], paired = TRUE):
		// mean difference 1.58, 95 % CI 0.7001142 2.4598858, t = 4.0621.
		{"sleep, drug 2 vs drug 1", sleep1, sleep2, Summary{
			N: 10, Mean: 1.58, SD: 1.2299954832798732, SE: 0.38895872388839524,
			CI95:    Interval{0.7001142367230172, 2.4598857632769828},
			Defined: true,
		}},
		{"sleep, drug 1 vs drug 2", sleep2, sleep1, Summary{
			N: 10, Mean: -1.58, SD: 1.2299954832798732, SE: 0.38895872388839524,
			CI95:    Interval{-2.4598857632769828, -0.7001142367230172},
			Defined: true,
		}},
		{"empty", nil, []float64{}, Summary{CI95: unbounded()}},
		{"one pair", []float64{1}, []float64{4}, Summary{N: 1, Mean: 3, CI95: unbounded()}},
		{"no effect", []float64{1, 2, 3}, []float64{1, 2, 3}, Summary{N: 3, CI95: Interval{0, 0}, Defined: true}},
		{"constant effect", []float64{1, 2, 3}, []float64{3, 4, 5}, Summary{N: 3, Mean: 2, CI95: Interval{2, 2}, Defined: true}},
	}
	for _, tt := range tests {
		got, err := Paired(tt.base, tt.variant)
		if err != nil {
			t.Errorf("%s: unexpected error %v", tt.name, err)
			continue
		}
		if got.N != tt.want.N || got.Defined != tt.want.Defined ||
			!near(got.Mean, tt.want.Mean, 1e-14) || !near(got.SD, tt.want.SD, 1e-14) ||
			!near(got.SE, tt.want.SE, 1e-14) ||
			!near(got.CI95.Lo, tt.want.CI95.Lo, 1e-14) || !near(got.CI95.Hi, tt.want.CI95.Hi, 1e-14) {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.name, got, tt.want)
		}
	}
	// The sleep difference is significant: t = 4.06 > t(0.975; 9).
	if s, _ := Paired(sleep1, sleep2); !s.CI95.ExcludesZero() {
		t.Errorf("sleep: CI95 %v should exclude zero", s.CI95)
	}
}

func TestPairedErrors(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	tests := []struct {
		name          string
		base, variant []float64
		want          error
	}{
		{"variant shorter", []float64{1, 2}, []float64{1}, ErrLengthMismatch},
		{"base empty", nil, []float64{1}, ErrLengthMismatch},
		{"NaN in base", []float64{1, nan}, []float64{1, 2}, ErrNonFinite},
		{"+Inf in variant", []float64{1, 2}, []float64{inf, 2}, ErrNonFinite},
		{"Inf - Inf", []float64{inf}, []float64{inf}, ErrNonFinite},
		{"difference overflows", []float64{-1e308, 0}, []float64{1e308, 0}, ErrNonFinite},
	}
	for _, tt := range tests {
		got, err := Paired(tt.base, tt.variant)
		if !errors.Is(err, tt.want) {
			t.Errorf("%s: error %v, want %v", tt.name, err, tt.want)
		}
		if got != (Summary{}) {
			t.Errorf("%s: Summary %+v on error, want zero value", tt.name, got)
		}
	}
}

// TestPairedEqualsSummarizeOfDifferences: Paired is exactly Summarize of
// the differences.
func TestPairedEqualsSummarizeOfDifferences(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for n := range 50 {
		base, variant, d := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range n {
			base[i] = 100 * r.Float64()
			variant[i] = base[i] + r.NormFloat64()
			d[i] = variant[i] - base[i]
		}
		got, err := Paired(base, variant)
		if want := Summarize(d); err != nil || !sameSummary(got, want) {
			t.Errorf("n=%d: Paired = %+v, %v; Summarize(differences) = %+v", n, got, err, want)
		}
	}
}

// TestPairedCommonRandomNumbers shows why Paired exists: with shared
// noise, the paired interval detects a 1 % effect that the two separate
// intervals, which overlap, cannot.
func TestPairedCommonRandomNumbers(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	const n = 10
	base, variant := make([]float64, n), make([]float64, n)
	for i := range n {
		noise := 20 * r.NormFloat64() // common to both runs of seed i
		base[i] = 1000 + noise + r.NormFloat64()
		variant[i] = 1010 + noise + r.NormFloat64()
	}
	sb, sv := Summarize(base), Summarize(variant)
	if !sb.CI95.Contains(sv.Mean) && !sv.CI95.Contains(sb.Mean) {
		t.Fatalf("separate intervals %v and %v should overlap for this seed", sb.CI95, sv.CI95)
	}
	d, err := Paired(base, variant)
	if err != nil || !d.CI95.ExcludesZero() || !d.CI95.Contains(10) || d.Mean <= 0 {
		t.Errorf("Paired = %+v, %v; want an interval above zero containing 10", d, err)
	}
}

func sameSummary(a, b Summary) bool {
	eq := func(x, y float64) bool { return x == y || (math.IsNaN(x) && math.IsNaN(y)) }
	return a.N == b.N && a.Defined == b.Defined && eq(a.Mean, b.Mean) && eq(a.SD, b.SD) &&
		eq(a.SE, b.SE) && eq(a.CI95.Lo, b.CI95.Lo) && eq(a.CI95.Hi, b.CI95.Hi)
}

package analysis

import (
	"math"
	"testing"
)

// TestWilsonNewcombe checks Newcombe (1998), Table I, method 3 (score
// interval without continuity correction), printed to 4 decimals.
func TestWilsonNewcombe(t *testing.T) {
	tests := []struct {
		x, n   int
		lo, hi float64
	}{
		{81, 263, 0.2553, 0.3662},
		{15, 148, 0.0624, 0.1605},
		{0, 20, 0.0000, 0.1611},
		{1, 29, 0.0061, 0.1718},
	}
	for _, tt := range tests {
		got := Wilson(tt.x, tt.n)
		if math.Abs(got.Lo-tt.lo) > 5e-5 || math.Abs(got.Hi-tt.hi) > 5e-5 {
			t.Errorf("Wilson(%d, %d) = %v, want [%.4f, %.4f] (Newcombe 1998)", tt.x, tt.n, got, tt.lo, tt.hi)
		}
	}
}

// TestWilsonExact checks the bounds to 1e-15 against the formula
// evaluated with 40-digit arithmetic (mpmath, z = √2·erfinv(0.95)).
func TestWilsonExact(t *testing.T) {
	tests := []struct {
		x, n   int
		lo, hi float64
	}{
		{81, 263, 0.25528851987827423, 0.36620957698280007},
		{15, 148, 0.06238639953073628, 0.16048724172330804},
		{0, 20, 0, 0.16112515805281939},
		{1, 29, 0.0061132142927626605, 0.17175521879320288},
		{0, 1, 0, 0.79345068562276261},
		{1, 1, 0.20654931437723739, 1},
		{5, 10, 0.23659309051256398, 0.76340690948743602},
		{10, 10, 0.72246720013711075, 1},
		{0, 100, 0, 0.036993498206985685},
		{50, 100, 0.40383153036599563, 0.59616846963400437},
	}
	for _, tt := range tests {
		got := Wilson(tt.x, tt.n)
		if !near(got.Lo, tt.lo, 1e-15) || !near(got.Hi, tt.hi, 1e-15) {
			t.Errorf("Wilson(%d, %d) = [%.17g, %.17g], want [%.17g, %.17g]", tt.x, tt.n, got.Lo, got.Hi, tt.lo, tt.hi)
		}
	}
}

func TestWilsonConventions(t *testing.T) {
	if got := Wilson(0, 0); got != (Interval{0, 1}) {
		t.Errorf("Wilson(0, 0) = %v, want [0, 1]", got)
	}
	for _, c := range [][2]int{{-1, 5}, {6, 5}, {0, -1}, {-1, -1}, {math.MinInt, 0}, {math.MaxInt, 1}} {
		got := Wilson(c[0], c[1])
		if !math.IsNaN(got.Lo) || !math.IsNaN(got.Hi) {
			t.Errorf("Wilson(%d, %d) = %v, want NaN bounds", c[0], c[1], got)
		}
		if got.Contains(0.5) || got.ExcludesZero() {
			t.Errorf("Wilson(%d, %d) = %v: Contains or ExcludesZero true", c[0], c[1], got)
		}
	}
	// Extreme n: still in [0, 1] around the estimate.
	for _, c := range [][2]int{{0, math.MaxInt}, {math.MaxInt, math.MaxInt}, {math.MaxInt / 2, math.MaxInt}, {1, math.MaxInt}} {
		got := Wilson(c[0], c[1])
		p := float64(c[0]) / float64(c[1])
		if !(0 <= got.Lo && got.Lo <= p && p <= got.Hi && got.Hi <= 1) {
			t.Errorf("Wilson(%d, %d) = %v, want 0 <= Lo <= %v <= Hi <= 1", c[0], c[1], got, p)
		}
	}
}

// TestWilsonShape checks, for every x of every n up to 200: bounds in
// [0, 1] around x/n, exact 0 and 1 at the ends, monotone in x, and the
// mirror symmetry Wilson(n-x, n) = 1 - Wilson(x, n).
func TestWilsonShape(t *testing.T) {
	for n := 1; n <= 200; n++ {
		prev := Interval{-1, -1}
		for x := 0; x <= n; x++ {
			got := Wilson(x, n)
			p := float64(x) / float64(n)
			if !(0 <= got.Lo && got.Lo <= p && p <= got.Hi && got.Hi <= 1) {
				t.Fatalf("Wilson(%d, %d) = %v, want 0 <= Lo <= %v <= Hi <= 1", x, n, got, p)
			}
			if (x == 0) != (got.Lo == 0) || (x == n) != (got.Hi == 1) {
				t.Fatalf("Wilson(%d, %d) = %v: Lo = 0 iff x = 0, Hi = 1 iff x = n", x, n, got)
			}
			if !(got.Lo > prev.Lo && got.Hi > prev.Hi) {
				t.Fatalf("Wilson(%d, %d) = %v not above Wilson(%d, %d) = %v", x, n, got, x-1, n, prev)
			}
			m := Wilson(n-x, n)
			if math.Abs(m.Lo-(1-got.Hi)) > 1e-15 || math.Abs(m.Hi-(1-got.Lo)) > 1e-15 {
				t.Fatalf("Wilson(%d, %d) = %v, mirror Wilson(%d, %d) = %v", x, n, got, n-x, n, m)
			}
			prev = got
		}
	}
}

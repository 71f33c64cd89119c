package analysis

import (
	"math"
	"testing"
)

// TestTCritical95 checks t(0.975; df) against values computed to 40 digits
// with mpmath (root of the regularized incomplete beta CDF); they agree
// with R's qt(0.975, df) and printed tables (df 1: 12.706, 10: 2.228,
// 30: 2.042).
func TestTCritical95(t *testing.T) {
	tests := []struct {
		df   int
		want float64
	}{
		{1, 12.706204736174704646},
		{2, 4.3026527297494638523},
		{3, 3.1824463052837095927},
		{4, 2.7764451051977943578},
		{5, 2.5705818356363155147},
		{9, 2.2621571627982055426},
		{10, 2.2281388519862747484},
		{19, 2.0930240544083097692},
		{29, 2.0452296421327042982},
		{30, 2.04227245630123831},
		{100, 1.9839715185235522866},
		{999, 1.9623414611334499787},
		{1000, 1.962339080826408485},
		{2000, 1.9611508260994380305},
		{10000, 1.9602012398906262578},
		{100000, 1.9599877075346096386},
		{1000000, 1.9599663568141070353},
		{1000000000, 1.9599639869123254686},
	}
	// Tolerance: the documented bound. Measured: gonum's inversion is within
	// 6e-14 up to df = 999, the asymptotic expansion within 5e-16 above.
	const tol = 1e-13
	for _, tt := range tests {
		if got := TCritical95(tt.df); !near(got, tt.want, tol) {
			t.Errorf("TCritical95(%d) = %.17g, want %.17g", tt.df, got, tt.want)
		}
	}
}

// TestTCritical95ClosedForms checks the closed-form quantiles of Student's
// t for 1, 2 and 4 degrees of freedom (Hill 1970, Comm. ACM 13(10);
// also en.wikipedia.org/wiki/Student's_t-distribution, "Special cases").
func TestTCritical95ClosedForms(t *testing.T) {
	const p = 0.975
	a := 4 * p * (1 - p)
	q := math.Cos(math.Acos(math.Sqrt(a))/3) / math.Sqrt(a)
	forms := []struct {
		df   int
		want float64
	}{
		{1, math.Tan(math.Pi * (p - 0.5))},
		{2, (2*p - 1) / math.Sqrt(2*p*(1-p))},
		{4, 2 * math.Sqrt(q-1)},
	}
	for _, f := range forms {
		if got := TCritical95(f.df); !near(got, f.want, 1e-12) {
			t.Errorf("TCritical95(%d) = %.17g, closed form %.17g", f.df, got, f.want)
		}
	}
}

func TestTCritical95Edges(t *testing.T) {
	for _, df := range []int{0, -1, math.MinInt} {
		if got := TCritical95(df); !math.IsInf(got, 1) {
			t.Errorf("TCritical95(%d) = %v, want +Inf", df, got)
		}
	}
	// Decreasing in df towards the normal quantile.
	prev := math.Inf(1)
	for df := 1; df <= 3000; df++ {
		got := TCritical95(df)
		if !(got < prev) || !(got > Z95) {
			t.Fatalf("TCritical95(%d) = %v, want in (Z95, TCritical95(%d) = %v)", df, got, df-1, prev)
		}
		prev = got
	}
	if got := TCritical95(math.MaxInt); got != Z95 {
		t.Errorf("TCritical95(MaxInt) = %.17g, want Z95 = %.17g", got, Z95)
	}
}

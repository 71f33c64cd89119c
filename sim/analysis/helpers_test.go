package analysis

import "math"

// near reports whether got is within tol of want, absolutely when
// |want| <= 1 and relatively otherwise. Infinities must match exactly.
func near(got, want, tol float64) bool {
	if math.IsInf(want, 0) || math.IsNaN(want) {
		return got == want || (math.IsNaN(got) && math.IsNaN(want))
	}
	return math.Abs(got-want) <= tol*max(1, math.Abs(want))
}

// hasNaN reports whether any number in s is NaN.
func hasNaN(s Summary) bool {
	for _, x := range []float64{s.Mean, s.SD, s.SE, s.CI95.Lo, s.CI95.Hi} {
		if math.IsNaN(x) {
			return true
		}
	}
	return false
}

// sleep is R's datasets::sleep (Cushny & Peebles 1905, Student 1908):
// extra hours of sleep of 10 patients under two drugs.
var (
	sleep1 = []float64{0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0}
	sleep2 = []float64{1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4}
)

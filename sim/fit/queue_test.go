package fit

import (
	"math"
	"testing"
)

// TestErlangC: published values of the Erlang C formula (and the
// M/M/1 identity C = rho).
func TestErlangC(t *testing.T) {
	for _, tc := range []struct {
		c    int
		a    float64
		want float64
	}{
		{1, 0.5, 0.5},   // M/M/1: P(wait) = rho
		{1, 0.9, 0.9},   // M/M/1
		{2, 1, 1.0 / 3}, // M/M/2 at rho 0.5: a^2/(2!(1-rho)) / (1 + a + that) = 1/3
		{10, 8, 0.4092}, // tables (e.g. Kleinrock; any call-centre calculator): 40.9 %
		{100, 80, 0.0196},
		{5, 6, 1},
	} {
		got := erlangC(tc.c, tc.a)
		if math.Abs(got-tc.want) > 5e-4 {
			t.Errorf("C(%d, %g) = %.4f, want %.4f", tc.c, tc.a, got, tc.want)
		}
	}
	pw, m := queueWait(10, 8, 0.01)
	if math.Abs(pw-0.4092) > 5e-4 || math.Abs(m-0.005) > 1e-12 {
		t.Errorf("queueWait(10, 8, 10ms) = %g, %g; want 0.409, 5ms", pw, m)
	}
}

package steady

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// noisy returns n values of level plus N(0, sd^2) noise, seeded.
func noisy(rng *rand.Rand, n int, level, sd float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = level + sd*rng.NormFloat64()
	}
	return v
}

// A linear ramp from 0 to 100 over 100 values, then a flat level of 100
// with noise of sd 5 for 400 values: the start must be after the ramp has
// mostly risen (>= 80: by then the ramp is within the noise's 4 sd) and
// not far into the flat part (<= 130).
func TestWindowRampThenFlat(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	v := noisy(rng, 500, 100, 5)
	for i := 0; i < 100; i++ {
		v[i] = float64(i) + 5*rng.NormFloat64()
	}
	start, end, err := Window(v)
	if err != nil {
		t.Fatal(err)
	}
	if start < 80 || start > 130 || end != len(v) {
		t.Fatalf("Window = [%d, %d), want start in [80, 130], end %d", start, end, len(v))
	}
}

// A stationary series needs (almost) no truncation: MSER-5 on iid noise
// truncates little, start <= 10% of the series.
func TestWindowStationary(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		v := noisy(rand.New(rand.NewPCG(seed, 7)), 1000, 3, 1)
		start, end, err := Window(v)
		if err != nil {
			t.Fatal(err)
		}
		if start > 100 || end != 1000 {
			t.Fatalf("seed %d: Window = [%d, %d), want start <= 100", seed, start, end)
		}
	}
}

func TestWindowNotSteady(t *testing.T) {
	if _, _, err := Window(make([]float64, 9)); !errors.Is(err, ErrNotSteady) {
		t.Fatalf("9 values: err %v, want ErrNotSteady", err)
	}
	// A series that rises until its last few values: the truncation point
	// lands in the last half.
	v := make([]float64, 200)
	for i := range v {
		v[i] = float64(i)
		if i >= 190 {
			v[i] = 190
		}
	}
	if s, e, err := Window(v); !errors.Is(err, ErrNotSteady) {
		t.Fatalf("ramp to the end: [%d, %d) err %v, want ErrNotSteady", s, e, err)
	}
	v[3] = math.NaN()
	if _, _, err := Window(v); err == nil || errors.Is(err, ErrNotSteady) {
		t.Fatalf("NaN: err %v, want a non-ErrNotSteady error", err)
	}
}

// AR(1) x_t = phi x_{t-1} + e_t with unit-variance e has stationary
// variance 1/(1-phi^2) and, for large n, Var(mean) ~ 1/((1-phi)^2 n): with
// phi = 0.9 and n = 20000 the true standard error is 10/sqrt(20000) =
// 0.0707. Batch means with 20 batches estimates it with a relative sd of
// about 1/sqrt(2*19) = 16%, so a factor of 1.6 either way is ~3 sd; the
// iid formula (sd/sqrt(n) = 0.0162) would fail by a factor of 4.4.
func TestMeanAR1(t *testing.T) {
	const phi, n = 0.9, 20000
	rng := rand.New(rand.NewPCG(42, 43))
	v := make([]float64, n)
	x := rng.NormFloat64() / math.Sqrt(1-phi*phi) // start stationary
	for i := range v {
		x = phi*x + rng.NormFloat64()
		v[i] = 5 + x
	}
	est, err := Mean(v, 0, n)
	if err != nil {
		t.Fatal(err)
	}
	want := 1 / ((1 - phi) * math.Sqrt(n))
	if r := est.StdErr / want; r < 1/1.6 || r > 1.6 {
		t.Fatalf("StdErr %.4f, true %.4f (ratio %.2f)", est.StdErr, want, r)
	}
	if est.Batches != 20 {
		t.Fatalf("Batches %d, want 20", est.Batches)
	}
	if math.Abs(est.Mean-5) > 4*want {
		t.Fatalf("Mean %.4f, want 5 +- %.4f", est.Mean, 4*want)
	}
}

func TestMeanSmallAndErrors(t *testing.T) {
	est, err := Mean([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 0, 12)
	if err != nil {
		t.Fatal(err)
	}
	// 10 batches of 1, dropping the first two values: mean of 3..12.
	if est.Batches != 10 || est.Mean != 7.5 {
		t.Fatalf("got %+v, want 10 batches of mean 7.5", est)
	}
	for _, w := range [][2]int{{-1, 3}, {0, 13}, {5, 5}, {4, 5}} {
		if _, err := Mean(make([]float64, 12), w[0], w[1]); err == nil {
			t.Fatalf("window %v: no error", w)
		}
	}
}

// TestWindowStationaryShort: a stationary series of 300 one-second rates
// (a 5-minute run, the fit's round trip) is steady for every seed. An
// unrestricted MSER-5 search called 5 of these 20 "not steady": the
// statistic of the last two or three batches is noise over a tiny m and
// often the smallest.
func TestWindowStationaryShort(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		v := noisy(rand.New(rand.NewPCG(seed, 11)), 300, 200, 14)
		start, end, err := Window(v)
		if err != nil {
			t.Errorf("seed %d: %v", seed, err)
			continue
		}
		if start > 150 || end != 300 {
			t.Errorf("seed %d: window [%d, %d), want it to start in the first half and end at 300", seed, start, end)
		}
	}
}

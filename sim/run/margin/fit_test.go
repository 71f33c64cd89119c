package margin

import (
	"math"
	"math/rand/v2"
	"testing"
)

// synthetic draws binomial counts from a known logistic curve at gs.
func synthetic(r *rand.Rand, gs []float64, n int, theta, slope, target float64) []Count {
	var cs []Count
	for _, g := range gs {
		p := sigmoid(logit(target) + slope*(g-theta))
		k := 0
		for range n {
			if r.Float64() < p {
				k++
			}
		}
		cs = append(cs, Count{G: g, N: n, K: k})
	}
	return cs
}

// standardError is the threshold's asymptotic standard error with the
// slope known: 1 / (slope · sqrt(sum n p (1-p))).
func standardError(gs []float64, n int, theta, slope, target float64) float64 {
	var info float64
	for _, g := range gs {
		p := sigmoid(logit(target) + slope*(g-theta))
		info += float64(n) * p * (1 - p)
	}
	return 1 / (slope * math.Sqrt(info))
}

func TestFitExactProportions(t *testing.T) {
	theta, slope := math.Log(0.1), 3.0
	var cs []Count
	for i := range 9 {
		g := math.Log(0.01) + float64(i)*0.5
		p := sigmoid(slope * (g - theta))
		cs = append(cs, Count{G: g, N: 1000000, K: int(math.Round(1e6 * p))})
	}
	f := FitLogistic(cs, 0.5)
	if math.Abs(f.Theta-theta) > 1e-3 || math.Abs(f.Slope-slope) > 1e-2 {
		t.Fatalf("theta %v slope %v, want %v %v", f.Theta, f.Slope, theta, slope)
	}
	if !(f.Lo < theta && theta < f.Hi) || f.Hi-f.Lo > 0.01 {
		t.Fatalf("interval [%v, %v] around %v", f.Lo, f.Hi, theta)
	}
}

// TestFitKnownThreshold: on binomial outcomes from a known curve, the
// threshold is within four standard errors (the binomial noise) of the
// truth every time, and the 95 % interval covers it about 95 % of the
// time, for the median and for another target.
func TestFitKnownThreshold(t *testing.T) {
	for _, target := range []float64{0.5, 0.8} {
		theta, slope := math.Log(0.12), 2.5
		var gs []float64
		for i := range 12 {
			gs = append(gs, math.Log(0.02)+float64(i)*0.35)
		}
		const n, trials = 8, 300
		se := standardError(gs, n, theta, slope, target)
		r := rand.New(rand.NewPCG(1, 2))
		covered := 0
		for range trials {
			f := FitLogistic(synthetic(r, gs, n, theta, slope, target), target)
			if math.Abs(f.Theta-theta) > 4*se {
				t.Errorf("target %v: theta %v, truth %v: more than 4 standard errors (%v) off", target, f.Theta, theta, se)
			}
			if f.Lo <= theta && theta <= f.Hi {
				covered++
			}
			if !(f.Lo <= f.Theta && f.Theta <= f.Hi) {
				t.Fatalf("interval [%v, %v] does not hold the estimate %v", f.Lo, f.Hi, f.Theta)
			}
		}
		// 95 % coverage: with 300 trials, below 88 % would be a 4.5-sigma event.
		if cov := float64(covered) / trials; cov < 0.88 {
			t.Errorf("target %v: coverage %.3f, want about 0.95", target, cov)
		}
	}
}

// TestFitSeparated: all runs recover below a gap and all lock in above
// it: the threshold is in the gap, and its interval is the gap (a
// threshold outside it would put P above 0.5 at a point where 0 of 8 ran
// locked in, or below it where 8 of 8 did: a likelihood ratio of 256).
func TestFitSeparated(t *testing.T) {
	cs := []Count{{G: 0, N: 8}, {G: 1, N: 8}, {G: 2, N: 8, K: 8}, {G: 3, N: 8, K: 8}}
	f := FitLogistic(cs, 0.5)
	if !(f.Theta > 1 && f.Theta < 2) || f.Lo > 1.01 || f.Hi < 1.99 || f.Lo < 0.9 || f.Hi > 2.1 || f.LoOpen || f.HiOpen {
		t.Fatalf("theta %v in [%v, %v] (open %v %v): want the gap (1, 2) inside a closed interval", f.Theta, f.Lo, f.Hi, f.LoOpen, f.HiOpen)
	}
	lo, hi := f.Band([]float64{0, 1.5, 3})
	if !(lo[1] < 0.5 && hi[1] > 0.5) || hi[0] > 0.5 || lo[2] < 0.5 {
		t.Fatalf("band lo %v hi %v", lo, hi)
	}
}

// TestFitAllRecovered: no lock-in anywhere: the threshold is above every
// point and its interval is open above.
func TestFitAllRecovered(t *testing.T) {
	f := FitLogistic([]Count{{G: 0, N: 8}, {G: 1, N: 8}, {G: 2, N: 8}}, 0.5)
	if !(f.Theta > 2) || !f.HiOpen {
		t.Fatalf("theta %v, hi open %v", f.Theta, f.HiOpen)
	}
}

func TestFitDeterministic(t *testing.T) {
	cs := []Count{{G: -2, N: 8}, {G: -1, N: 8, K: 1}, {G: 0, N: 8, K: 5}, {G: 1, N: 8, K: 8}}
	a, b := FitLogistic(cs, 0.5), FitLogistic(cs, 0.5)
	if a.Theta != b.Theta || a.Lo != b.Lo || a.Hi != b.Hi || a.Slope != b.Slope {
		t.Fatal("two fits of the same counts differ")
	}
}

package rare

import (
	"context"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/ctmc"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run/output"
)

// exactSmall is the smallest retry storm that is a Markov chain exactly:
// one worker, 12 places, an exponential timeout and an immediate retry.
const exactSmall = "../../ctmc/testdata/exact-small.toml"

// loadExact reads exactSmall with the users' rate set to rate.
func loadExact(t testing.TB, rate float64) *experiment.Experiment {
	t.Helper()
	src, err := os.ReadFile(exactSmall)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(src), "rate = 2\n", fmt.Sprintf("rate = %g\n", rate), 1)
	e, err := experiment.Parse("exact-small.toml", []byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// chainProbability is ressim ctmc's probability of the same event: the
// backlog at least level at an interval's end (every 100 ms) within the
// 20 s.
func chainProbability(t testing.TB, e *experiment.Experiment, level int) ctmc.LevelHit {
	t.Helper()
	p, err := ctmc.ExactFromModel(e.Model)
	if err != nil {
		t.Fatal(err)
	}
	h, err := p.LevelProbability(context.Background(), ctmc.LevelOptions{Level: level,
		Step: e.Model.Interval.Seconds(), Within: e.Model.Duration.Seconds(), Warmup: e.Model.Warmup.Seconds()})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestSplittingAgreesWithChain is issue 30's comparison of ressim rare
// with ressim ctmc: on exact-small, whose chain is the simulator's model
// exactly (sim/ctmc ExactParams), the chain's probability of a backlog of
// at least 12 at an interval's end (every 100 ms) within 20 s, computed
// to round-off (error bound below 1e-17), and AMS's estimate (200
// particles, 10 independent estimates) must agree at 1.3e-3, 8.0e-5,
// 7.3e-7 and 1.8e-9.
//
// The tolerance: the interval is Student's t on 10 estimates, so
// (estimate - truth) / half-width x 2.262 is a t variable with 9 degrees
// of freedom if the estimates are unbiased and near normal. The test
// allows |t| up to 4.78, its 99.9 % point: the chain's value must lie
// within 4.78 / 2.262 = 2.11 half-widths of the estimate. The half-width
// is taken above the estimate (ci95_hi - estimate), since the interval is
// cut at 0 below. A correct simulator fails one of the 4 points about
// once in 250 seed sets (the seeds are fixed, so the outcome is too).
// Before branches redrew their memoryless delays (topology.BranchAt),
// copies shared every event already on the calendar and this test failed
// from 8e-5 down, with t below -4: the estimates were heavy-tailed and
// their mean fell short.
func TestSplittingAgreesWithChain(t *testing.T) {
	if testing.Short() {
		t.Skip("about 100 s")
	}
	const widen = 4.78 / 2.262
	for _, rate := range []float64{1.5, 1, 0.5, 0.2} {
		e := loadExact(t, rate)
		h := chainProbability(t, e, 12)
		out, err := Run(context.Background(), e, Options{Method: AMS, Runs: 200, Repeats: 10, Level: 12, Jobs: 2}, &output.Memory{})
		if err != nil {
			t.Fatal(err)
		}
		r := out.Result
		half := r.Hi - r.Probability
		t.Logf("rate %g: chain %.4g (bound %.2g); AMS %.4g (95 %%: %.4g to %.4g), %d runs, %d events; t = %.2f",
			rate, h.Probability, h.Bound, r.Probability, r.Lo, r.Hi, r.Runs, r.Events, (r.Probability-h.Probability)/half*2.262)
		if !(half > 0) || math.Abs(h.Probability-r.Probability) > widen*half {
			t.Errorf("rate %g: chain %.4g outside AMS's interval widened %.2f times (%.4g to %.4g)",
				rate, h.Probability, widen, r.Probability-widen*half, r.Probability+widen*half)
		}
	}
}

// TestNaiveAgreesWithChain: plain replications of exact-small against its
// chain where they can run (about 1e-2 to 4e-2): the chain's value must
// lie in the Wilson 99.9 % interval of 4000 runs (z = 3.29; at 4e-2 its
// half-width is 0.010). It checks the simulator and the chain at once:
// an exponential timeout read as fixed, or the retry's orphan dropped
// instead of served, moves these probabilities by several times that.
func TestNaiveAgreesWithChain(t *testing.T) {
	if testing.Short() {
		t.Skip("about 10 s")
	}
	for _, pt := range []struct {
		rate  float64
		level int
	}{{2.5, 12}, {2, 10}} {
		e := loadExact(t, pt.rate)
		h := chainProbability(t, e, pt.level)
		out, err := Run(context.Background(), e, Options{Method: Naive, Runs: 4000, Level: int64(pt.level), Jobs: 2}, &output.Memory{})
		if err != nil {
			t.Fatal(err)
		}
		r := out.Result
		lo, hi := wilson(r.LockedIn, r.Runs, 3.29)
		t.Logf("rate %g level %d: chain %.4g, naive %d/%d = %.4g (99.9 %%: %.4g to %.4g)", pt.rate, pt.level, h.Probability, r.LockedIn, r.Runs, r.Probability, lo, hi)
		if h.Probability < lo || h.Probability > hi {
			t.Errorf("rate %g level %d: chain %.4g outside naive's 99.9 %% interval %.4g to %.4g", pt.rate, pt.level, h.Probability, lo, hi)
		}
	}
}

// wilson is the Wilson score interval of k in n at z.
func wilson(k, n int, z float64) (lo, hi float64) {
	p, nn := float64(k)/float64(n), float64(n)
	d := 1 + z*z/nn
	c := (p + z*z/(2*nn)) / d
	h := z * math.Sqrt(p*(1-p)/nn+z*z/(4*nn*nn)) / d
	return c - h, c + h
}

// TestAMSTenTimesCheaperThanNaive is issue 30's cost claim: at about
// 1e-4 (exact-small at 1 request/s: the chain says 8.045e-5), AMS with
// 200 particles and 6 independent estimates reaches a relative 95 %
// interval width of at most 1 with at least 10 times fewer simulated
// events than naive runs would need for width 1. Naive's need: an
// interval of relative width 1 takes about (2 × 1.96)² (1 − p) / p runs
// (191 000 here), times the mean events of a naive run, measured on 1000
// runs (about 268: 20 s at 1 request/s, plus the 200 interval ends).
// AMS's events count every event of every run, replays included.
// Measured: width 0.78 with 3.04M events against naive's 51.1M, 16.8
// times fewer. (With 5 estimates the width was 1.05 for 2.55M events; with
// 10, 0.51 for 5.06M: the interval narrows as the square root of the
// events, so every one is 10 to 38 times below naive at width 1.)
func TestAMSTenTimesCheaperThanNaive(t *testing.T) {
	if testing.Short() {
		t.Skip("about 25 s")
	}
	e := loadExact(t, 1)
	p := chainProbability(t, e, 12).Probability
	nv, err := Run(context.Background(), e, Options{Method: Naive, Runs: 1000, Level: 12, Jobs: 2}, &output.Memory{})
	if err != nil {
		t.Fatal(err)
	}
	perRun := float64(nv.Result.Events) / float64(nv.Result.Runs)
	naiveEvents := math.Ceil(2*1.96*2*1.96*(1-p)/p) * perRun
	out, err := Run(context.Background(), e, Options{Method: AMS, Runs: 200, Repeats: 6, Level: 12, Jobs: 2}, &output.Memory{})
	if err != nil {
		t.Fatal(err)
	}
	r := out.Result
	width := (r.Hi - r.Lo) / r.Probability
	ratio := naiveEvents / float64(r.Events)
	t.Logf("p = %.4g (chain); AMS %.4g (95 %%: %.4g to %.4g), relative width %.2f, %d events; naive needs %.3g events (%.1f a run): %.1f times more",
		p, r.Probability, r.Lo, r.Hi, width, r.Events, naiveEvents, perRun, ratio)
	if width > 1 || ratio < 10 {
		t.Errorf("relative width %.2f (want <= 1), %.1f times fewer events than naive (want >= 10)", width, ratio)
	}
	if lo, hi := r.Probability-2.11*(r.Hi-r.Probability), r.Probability+2.11*(r.Hi-r.Probability); p < lo || p > hi {
		t.Errorf("the chain's %.4g is outside AMS's interval widened 2.11 times (as in TestSplittingAgreesWithChain)", p)
	}
}

package topology

import (
	"math"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies/hedge"
)

// hedged is an open-loop client at rate calls/s to "api", whose one work
// step is exponential with mean 10 ms and which has far more workers than
// requests in flight (no queueing), the call hedged with h; api cancels
// work with mode.
func hedged(h hedge.Config, rate float64, mode Cancellation) Config {
	return Config{
		Name: "hedge", Duration: 200 * time.Second, Seed: 7,
		Clients: []ClientConfig{{Name: "c", Target: "api", Rate: rate, Call: CallPolicy{Hedge: h}}},
		Services: []ServiceConfig{{Name: "api", Workers: 1000, QueueCapacity: -1, Cancellation: mode,
			Steps: work(expo(10 * time.Millisecond))}},
	}
}

// hedgedSurvival is P(T > t) for two copies of an exponential latency
// with mean mu, the second sent d after the first when the first has not
// answered: S(t) before d, S(t) S(t-d) after (hedge.Survival's closed
// form, with no queueing).
func hedgedSurvival(t, d, mu float64) float64 {
	s := math.Exp(-t / mu)
	if t >= d {
		s *= math.Exp(-(t - d) / mu)
	}
	return s
}

// TestHedgeModelClosedForm: with no queueing, a hedged call's latency in
// the model follows the closed form. For each quantile q the tolerance is
// 4 standard errors of an empirical quantile, sqrt(q(1-q)/n) / f(t_q)
// (f the density, by a central difference), plus the histogram's 1 %
// relative resolution; n is about 200 s x 200/s = 40,000 calls.
func TestHedgeModelClosedForm(t *testing.T) {
	h := hedge.DefaultConfig()
	h.Delay = 10 * time.Millisecond
	res := mustRun(t, hedged(h, 200, CancelNever))
	lat := res.Clients[0].Latency
	n := float64(lat.Count())
	if n < 30000 {
		t.Fatalf("%v calls answered, want about 40,000", n)
	}
	const d, mu = 0.010, 0.010
	for _, q := range []float64{0.5, 0.9, 0.99} {
		lo, hi := 0.0, 1.0 // bisection for S(t) = 1 - q
		for range 100 {
			mid := (lo + hi) / 2
			if hedgedSurvival(mid, d, mu) > 1-q {
				lo = mid
			} else {
				hi = mid
			}
		}
		want := lo
		const e = 1e-5
		f := (hedgedSurvival(want-e, d, mu) - hedgedSurvival(want+e, d, mu)) / (2 * e)
		tol := 4*math.Sqrt(q*(1-q)/n)/f + 0.01*want
		got := float64(lat.Quantile(q)) / 1e9
		if math.Abs(got-want) > tol {
			t.Errorf("p%g: %.5f s, closed form %.5f s (tolerance %.5f)", 100*q, got, want, tol)
		}
	}
	// The second copy goes for the calls still unanswered at d: S(d) =
	// e^-1 of them; the losers are every hedge but those that won.
	c := res.Calls[0]
	if share := float64(c.Hedges) / float64(c.Calls); math.Abs(share-math.Exp(-1)) > 0.02 {
		t.Errorf("hedges per call %.3f, want e^-1 = 0.368", share)
	}
	if c.Attempts != c.Calls+c.Hedges || c.HedgesLost == 0 || c.HedgesLost > c.Hedges {
		t.Errorf("attempts %d, calls %d, hedges %d, lost %d", c.Attempts, c.Calls, c.Hedges, c.HedgesLost)
	}
}

// TestHedgeLosersCancelled: the losing copies' work is wasted when the
// callee never cancels, and almost none of it with continuous
// cancellation (each loser stops at the instant its call is decided).
func TestHedgeLosersCancelled(t *testing.T) {
	h := hedge.DefaultConfig()
	h.Delay = 10 * time.Millisecond
	never := svcResult(t, mustRun(t, hedged(h, 200, CancelNever)), "api")
	cont := svcResult(t, mustRun(t, hedged(h, 200, CancelContinuous)), "api")
	if never.WastedWork < 10*time.Second {
		t.Errorf("wasted work %v without cancellation: want the losers' work (tens of seconds)", never.WastedWork)
	}
	if cont.WastedWork > never.WastedWork/100 {
		t.Errorf("wasted work %v with continuous cancellation, %v without: want under 1 %%", cont.WastedWork, never.WastedWork)
	}
}

// TestHedgeValidate: a call hedges or retries, not both, and its breaker
// stays outside; the attempts are in range.
func TestHedgeValidate(t *testing.T) {
	h := hedge.DefaultConfig()
	for _, tc := range []struct {
		name string
		p    CallPolicy
	}{
		{"retry too", CallPolicy{Hedge: h, Retry: retries(3)}},
		{"six copies", CallPolicy{Hedge: hedge.Config{MaxAttempts: 6}}},
	} {
		cfg := hedged(h, 10, CancelNever)
		cfg.Clients[0].Call = tc.p
		if _, err := New(cfg); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
}

// TestHedgeOwnerGivesUp: a user whose deadline passes while both copies
// are out abandons the call; its copies are cancelled but not counted as
// lost to another copy, and the pooled hedge state is reused safely by
// the calls that follow (the run ends without a wrong phase move).
func TestHedgeOwnerGivesUp(t *testing.T) {
	h := hedge.DefaultConfig()
	h.Delay = 10 * time.Millisecond
	cfg := hedged(h, 50, CancelNever)
	cfg.Duration = 20 * time.Second
	cfg.Clients[0].Deadline = constant(15 * time.Millisecond)
	cfg.Services[0].Steps = work(constant(50 * time.Millisecond))
	res := mustRun(t, cfg)
	c := res.Calls[0]
	if c.Calls < 900 || c.Hedges != c.Calls || c.HedgesLost != 0 || c.OK != 0 {
		t.Errorf("calls %d, hedges %d, lost %d, ok %d: want a hedge per call, none lost, none answered in time", c.Calls, c.Hedges, c.HedgesLost, c.OK)
	}
}

package experiments_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/compare"
	"github.com/ressim/ressim/sim/topology"
)

// jirfag's numbers for his retry circuit breaker ("retry-cb-10%") during
// the 30 % error burst of "Good retry, bad retry" (github.com/jirfag/simulations,
// commit 746a5efcbf768470345dd5a0a5caee04faaa7bc3, simulation_main.py,
// scenario retry_cb_or_budget_vs_exp_backoff_partial_failure; metrics of
// visualize.py): relative server RPS (server requests finished per 20 ms
// chart point over target_rps/50) and client uptime (calls finished OK
// over calls finished, per chart point).
const (
	jirfagAmplification = 1.007
	jirfagUptime        = 0.695
	// His figures were drawn at 300000 calls/s (scripts/gen_article_images.sh):
	// 6000 calls per 20 ms chart point, so one point's relative RPS has a
	// Poisson standard error of 1/sqrt(6000) = 1.3 % and its uptime
	// sqrt(0.7*0.3/6000) = 0.59 %. The tolerances are 3 standard errors
	// of his point combined with ressim's (below: 15000 calls, 5
	// replications of 300 ms at 10000/s, so 0.37 % for the uptime and
	// nothing for the ratio of attempts to calls).
	jirfagAmplificationTol = 3 * 0.013
	jirfagUptimeTol        = 0.021
)

// burstMetrics sums, over the replications of one variant, the attempts
// the client sent, the calls it made, and its calls finished OK and failed
// in the intervals inside [from, to).
func burstMetrics(t *testing.T, runs []*topology.Result, from, to time.Duration) (amp, uptime float64) {
	t.Helper()
	var attempts, sent, ok, failed float64
	for _, res := range runs {
		ts := res.Series
		cols := []struct {
			entity, metric string
			sum            *float64
		}{
			{"client:users->api/call", "attempts", &attempts}, {"users", "sent", &sent},
			{"users", "goodput", &ok}, {"users", "failed", &failed},
		}
		for _, c := range cols {
			col := ts.Find(c.entity, c.metric)
			if col == nil {
				*c.sum = math.NaN() // a variant without retries has no attempts column
				continue
			}
			for i := 0; i < ts.Len(); i++ {
				if ts.Start(i) >= int64(from) && ts.End(i) <= int64(to) {
					*c.sum += col.Value(i)
				}
			}
		}
	}
	if math.IsNaN(attempts) {
		attempts = sent
	}
	return attempts / sent, ok / (ok + failed)
}

// TestRetryBreakerJirfag reproduces jirfag's retry circuit breaker in a
// 30 % error burst. His numbers are the plateau of the burst: once the
// breaker's 200 ms window lies wholly in the burst (from 0.7 s to its end
// at 1.0 s) the failure rate it sees is 30 %, far above 10 %, and it
// stops every retry. In the first ~50 ms of the burst, before 10 % of its
// window has failed, it still lets retries through: the mean over the
// whole burst is higher (logged, not checked against his numbers).
func TestRetryBreakerJirfag(t *testing.T) {
	exp, err := experiment.Load("retry-breaker.toml")
	if err != nil {
		t.Fatal(err)
	}
	c, err := compare.RunAll(context.Background(), exp, run.CompareOptions{Jobs: 2, KeepRuns: true})
	if err != nil {
		t.Fatal(err)
	}
	const (
		burst   = 500 * time.Millisecond
		window  = 200 * time.Millisecond
		burstTo = 1000 * time.Millisecond
	)
	got := map[string][2]float64{}
	for a, arm := range c.Arms {
		amp, up := burstMetrics(t, c.Runs[a], burst+window, burstTo)
		ampAll, upAll := burstMetrics(t, c.Runs[a], burst, burstTo)
		got[arm.Name] = [2]float64{amp, up}
		t.Logf("%-18s plateau [0.7 s, 1.0 s): amplification %.3f, client uptime %.3f; whole burst: %.3f, %.3f",
			arm.Name, amp, up, ampAll, upAll)
	}
	b := got["base"]
	if math.Abs(b[0]-jirfagAmplification) > jirfagAmplificationTol {
		t.Errorf("retry-only breaker: amplification %.3f, jirfag %.3f ± %.3f", b[0], jirfagAmplification, jirfagAmplificationTol)
	}
	if math.Abs(b[1]-jirfagUptime) > jirfagUptimeTol {
		t.Errorf("retry-only breaker: client uptime %.3f, jirfag %.3f ± %.3f", b[1], jirfagUptime, jirfagUptimeTol)
	}
	// Plain retries: 1 + 0.3 + 0.09 attempts per call, uptime 1 - 0.3^3.
	if r := got["retry-2x"]; math.Abs(r[0]-1.39) > 0.03 || math.Abs(r[1]-0.973) > 0.01 {
		t.Errorf("retry-2x: amplification %.3f (want 1.39), uptime %.3f (want 0.973)", r[0], r[1])
	}
	if n := got["no-retries"]; math.Abs(n[0]-1) > 1e-9 || math.Abs(n[1]-0.7) > jirfagUptimeTol {
		t.Errorf("no-retries: amplification %.3f (want 1), uptime %.3f (want 0.70)", n[0], n[1])
	}
	if w := got["attempt-breaker"]; w[1] >= b[1]-0.05 {
		t.Errorf("attempt breaker: uptime %.3f, want well below the retry-only breaker's %.3f", w[1], b[1])
	}
}

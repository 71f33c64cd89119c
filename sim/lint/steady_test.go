package lint

import (
	"math"
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/policies/budget"
	"github.com/ressim/ressim/sim/policies/hedge"
	"github.com/ressim/ressim/sim/policies/retry"
	"github.com/ressim/ressim/sim/topology"
)

// TestRetryBudgetSteadyState: the bundled demonstration that retry
// budgets cure amplification gets no error (issue 24: it had two RS007
// errors, "27x worst case", though its measured amplification is about
// 1.1x), and its path's steady state is worked out by hand: the users
// send 100/s; each layer allows 1 + 0.1 + 1 retry/s over its call rate:
// 1.11 at 100/s, then 1.1 + 1/111 at 111/s, then 1.1 + 1/(111 x that).
func TestRetryBudgetSteadyState(t *testing.T) {
	e, src := loadBundled(t, "retry-budget.toml")
	r, err := Check(e, src, AllVariants)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range r.Findings {
		if f.Severity == Error {
			t.Errorf("error %s: %s", f.Rule, f.Message)
		}
	}
	l1 := 1.11
	l2 := 1.1 + 1/(100*l1)
	l3 := 1.1 + 1/(100*l1*l2)
	want := l1 * l2 * l3
	if len(r.Paths) != 1 {
		t.Fatalf("%d paths, want 1", len(r.Paths))
	}
	p := r.Paths[0]
	if math.Abs(p.SteadyAmplification-want) > 1e-9 || p.Amplification != 27 || p.BudgetedLayers != 3 || p.RetryLayers != 0 {
		t.Errorf("path %s: steady %v (want %v), worst %d (want 27), %d budgeted and %d unbudgeted layers (want 3, 0)",
			pathString(p), p.SteadyAmplification, want, p.Amplification, p.BudgetedLayers, p.RetryLayers)
	}
}

// TestHedgeAmplification: a hedged call's copies count as attempts in
// the path's worst case (2 hedged x 3 hedged x 3 = 18x), a hedged layer
// without a token budget counts as a retrying layer and one with it as
// budgeted, and its budget caps it in steady state as it caps retries:
// 1 + 0.1 + 1/(100 x 2) at front -> back, whose calls arrive at 2 x 100/s
// from the client's unbudgeted hedge.
func TestHedgeAmplification(t *testing.T) {
	r := lintSrc(t, `schema = 1
[experiment]
name = "t"
duration = "10s"
[[client]]
name = "users"
target = "front"
rate = 100
deadline = "1s"
hedge = { attempts = 2, delay = "10ms" }
[[service]]
name = "front"
workers = 10
queue_capacity = 0
  [[service.step]]
  call = "back"
  timeout = "100ms"
  hedge = { attempts = 3, delay = "5ms" }
  retry_budget = { ratio = 0.1 }
[[service]]
name = "back"
workers = 10
queue_capacity = 0
  [[service.step]]
  call = "db"
  timeout = "50ms"
  retry = { attempts = 3 }
[[service]]
name = "db"
workers = 10
queue_capacity = 0
service_time = { dist = "exponential", mean = "1ms" }
`)
	if len(r.Paths) != 1 {
		t.Fatalf("%d paths, want 1", len(r.Paths))
	}
	p := r.Paths[0]
	want := 2 * (1.1 + 1/(100*2.0)) * 3
	if p.Amplification != 18 || math.Abs(p.SteadyAmplification-want) > 1e-9 || p.RetryLayers != 2 || p.BudgetedLayers != 1 {
		t.Errorf("path %s: worst %d (want 18), steady %v (want %v), %d unbudgeted and %d budgeted layers (want 2, 1)",
			pathString(p), p.Amplification, p.SteadyAmplification, want, p.RetryLayers, p.BudgetedLayers)
	}
	if got, want := pathString(p), "users -> front -> back -> db (2 hedged x 3 hedged x 3)"; got != want {
		t.Errorf("path %q, want %q", got, want)
	}
	var rs007 []string
	for _, f := range r.Findings {
		if f.Rule == "RS007" {
			rs007 = append(rs007, f.Message)
		}
	}
	if len(rs007) != 1 || !strings.Contains(rs007[0], "back -> db retries under 1 other retrying or hedging layer(s)") {
		t.Errorf("RS007 findings %q, want one at back -> db under the client's hedge", rs007)
	}
}

// TestHedgeNotRetryConcurrency: a concurrency retry_budget limits
// retries only, so a hedged layer with one still counts as unbudgeted,
// while a retrying layer with one does not.
func TestHedgeNotRetryConcurrency(t *testing.T) {
	conc := &budget.ConcurrencyConfig{BudgetPercent: 20}
	hedged := topology.CallPolicy{Hedge: hedge.Config{MaxAttempts: 2}}
	hedged.Guards.RetryConcurrency = conc
	retried := topology.CallPolicy{Retry: retry.Config{MaxAttempts: 2}}
	retried.Guards.RetryConcurrency = conc
	if budgeted(hedged) || !budgeted(retried) || attempts(hedged) != 2 || steadyAttempts(hedged, 100) != 2 {
		t.Errorf("budgeted: hedged %v (want false), retried %v (want true); hedged attempts %d, steady %v (want 2, 2)",
			budgeted(hedged), budgeted(retried), attempts(hedged), steadyAttempts(hedged, 100))
	}
}

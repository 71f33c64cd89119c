package lint

import (
	"math"
	"testing"
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

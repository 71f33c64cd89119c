package alerts_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/ressim/ressim/internal/promtool/promtooltest"
	"github.com/ressim/ressim/sim/alerts"
	"github.com/ressim/ressim/sim/experiment"
)

func evaluate(t *testing.T, file, rules string, every time.Duration) *alerts.Report {
	t.Helper()
	promtooltest.Require(t)
	exp, err := experiment.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := alerts.Evaluate(context.Background(), exp.Model, alerts.Options{Rules: rules, EvalInterval: every})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// within fails unless lo <= d <= hi.
func within(t *testing.T, what string, d, lo, hi time.Duration) {
	t.Helper()
	if d < lo || d > hi {
		t.Errorf("%s %v, want within [%v, %v]", what, d, lo, hi)
	}
}

// TestDegraded200: for the eight minutes recommendations hangs, every page
// is served degraded with status 200. The availability SLO on non-error
// responses never even goes pending; the goodput SLO and the
// fallback-too-long alert fire, and resolve after recovery; nothing fires
// in the run without the fault. The rules are evaluated every 15 s, so
// every time is a multiple of 15 s and the bounds below are the rule's own
// delays rounded up to evaluations.
func TestDegraded200(t *testing.T) {
	const fault = "recommendations hangs"
	s := time.Second
	rep := evaluate(t, "degraded-200.toml", "degraded-200.rules.yml", 15*s)
	if d, ok := rep.Find(fault, "AvailabilitySLONaive"); ok {
		t.Errorf("the naive SLO reacted to a degraded-only incident: %v", d)
	}
	// The 5-minute good ratio drops below 99 % once 1 % of the window
	// (3 s) is degraded: pending at the first evaluation after that (<= 15
	// s), firing 2 min (for) later, at an evaluation.
	g, ok := rep.Find(fault, "GoodputSLO")
	if !ok || !g.Fired {
		t.Fatalf("the goodput SLO did not fire: %+v", g)
	}
	within(t, "goodput SLO time to detect", g.FiringAfter, 2*time.Minute, 2*time.Minute+30*s)
	// Resolution: the breaker stays open up to max_open_pause (60 s)
	// after the fault, then the 5-minute window must be 99 % good again
	// (297 s), plus an evaluation of slack each way.
	if !g.Resolved {
		t.Errorf("the goodput SLO did not resolve: %v", g)
	}
	within(t, "goodput SLO resolved after the fault", g.ResolvedAfter, 297*s-15*s, 60*s+5*time.Minute+30*s)
	// Fallback: rate over 1 m > 0 from the first fallback (pending at
	// the first evaluation, <= 15 s), firing 5 min (for) later.
	f, ok := rep.Find(fault, "FallbackServedTooLong")
	if !ok || !f.Fired {
		t.Fatalf("the fallback alert did not fire: %+v", f)
	}
	within(t, "fallback alert time to detect", f.FiringAfter, 5*time.Minute, 5*time.Minute+30*s)
	// It resolves once the breaker closes (<= 60 s) and the 1 m rate
	// window has no fallback left.
	if !f.Resolved {
		t.Errorf("the fallback alert did not resolve: %v", f)
	}
	within(t, "fallback alert resolved after the fault", f.ResolvedAfter, time.Minute-15*s, 2*time.Minute+30*s)
	if fa := rep.FalseAlarms(); rep.Baseline == nil || len(fa) > 0 {
		t.Errorf("false alarms in the run without the fault: %+v (baseline %v)", fa, rep.Baseline != nil)
	}
	// The equivalent promtool test file passes on its own (the method
	// runs it and fails otherwise).
	if err := rep.WritePromtoolTest(context.Background(), filepath.Join(t.TempDir(), "degraded-200.test.yml")); err != nil {
		t.Fatal(err)
	}
}

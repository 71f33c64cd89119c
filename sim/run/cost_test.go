package run

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run/runner"
)

// TestEstimateOfBundledExperiments: the estimate never under-counts a
// bundled experiment's events and over-counts by less than 60 times
// (measured: 2.2 to 9.8, retry-budget.toml 50, whose retry budget turns
// almost every retry off); and every bundled run, comparison and sweep
// fits runner.DefaultBudget.
func TestEstimateOfBundledExperiments(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every bundled experiment")
	}
	files, err := filepath.Glob("../../experiments/*.toml")
	if err != nil || len(files) == 0 {
		t.Fatal("no bundled experiments", err)
	}
	for _, f := range files {
		exp, err := experiment.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		est := runner.Estimate(exp.Model).Events
		res, err := runner.NewMeter(context.Background(), runner.Budget{}).Run(exp.Model, runner.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if ratio := est / float64(res.Events); ratio < 1 || ratio > 60 {
			t.Errorf("%s: estimated %.0f events, fired %d (ratio %.2f)", f, est, res.Events, ratio)
		}
		if got, want := len(res.Series.Columns()), exp.Model.SeriesColumns(); got != want {
			t.Errorf("%s: %d series columns, topology.Config.SeriesColumns says %d", f, got, want)
		}
		t.Logf("%s: events estimated/fired %.2f", filepath.Base(f), est/float64(res.Events))
		if err := runner.DefaultBudget.Check(comparePlan(exp, max(exp.Replications, 1))); err != nil {
			t.Errorf("%s: compare: %v", f, err)
		}
		if exp.Sweep != nil {
			plan, err := sweepPlan(exp, max(exp.Replications, 1))
			if err != nil {
				t.Fatal(err)
			}
			if err := runner.DefaultBudget.Check(plan); err != nil {
				t.Errorf("%s: sweep: %v", f, err)
			}
		}
	}
}

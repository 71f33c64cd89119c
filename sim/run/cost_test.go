package run

import (
	"context"
	"errors"
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
		c := &Comparison{Replications: max(exp.Replications, 1), Arms: Arms(exp)}
		if err := runner.DefaultBudget.Check(c.plan()); err != nil {
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

// TestStoppedCompareKeepsWholeReplications: a comparison stopped after
// its 7th run (3 variants, one job: replications 0 and 1 whole, and one
// run of replication 2) keeps replications 0 and 1, and the run in
// progress is abandoned.
func TestStoppedCompareKeepsWholeReplications(t *testing.T) {
	exp, err := experiment.Load("testdata/variants.toml")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	progress := func(done, total int) {
		if done == 7 {
			cancel()
		}
	}
	c, err := RunAll(ctx, exp, CompareOptions{Jobs: 1, Replications: 50, Progress: progress})
	if !errors.Is(err, context.Canceled) || c == nil || c.Replications != 2 {
		t.Fatalf("err %v, comparison %v", err, c)
	}
	for a := range c.Arms {
		if len(c.Records[a]) != 2 || c.Records[a][1].Seed != ReplicationSeed(exp.Model.Seed, 1) {
			t.Errorf("arm %d: %d records", a, len(c.Records[a]))
		}
	}
}

// TestCompareKeepsRecordsNotResults: a comparison keeps every
// replication's record but only replication 0's whole result, so its
// memory does not grow with replications x series length.
func TestCompareKeepsRecordsNotResults(t *testing.T) {
	exp, err := experiment.Load("testdata/variants.toml")
	if err != nil {
		t.Fatal(err)
	}
	c, err := RunAll(context.Background(), exp, CompareOptions{Jobs: 2, Replications: 6})
	if err != nil {
		t.Fatal(err)
	}
	for a := range c.Arms {
		if c.Runs[a][0] == nil || len(c.Records[a]) != 6 || c.Records[a][5].SummarySHA256 == "" {
			t.Fatalf("arm %d: replication 0 or a record missing", a)
		}
		for r := 1; r < 6; r++ {
			if c.Runs[a][r] != nil {
				t.Errorf("arm %d keeps replication %d's whole result", a, r)
			}
		}
		if c.overlay[a].next != 6 || len(c.overlay[a].pending) != 0 {
			t.Errorf("arm %d: overlay folded %d of 6, %d pending", a, c.overlay[a].next, len(c.overlay[a].pending))
		}
	}
}

package run

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/topology"
)

// TestEstimateFormula checks the documented formula on small models
// whose event counts can be written by hand.
func TestEstimateFormula(t *testing.T) {
	base := `schema = 1
[experiment]
name = "e"
duration = "10s"
interval = "1s"
[[service]]
name = "leaf"
workers = 1
service_time = { dist = "constant", mean = "1ms" }
`
	steps := []struct {
		name, extra string
		want        float64
	}{
		// 100/s x 10 s x (4 + 1 work step) + 10 intervals x (1 + 1 service + 1 client)
		{"open loop", "[[client]]\nname = \"c\"\ntarget = \"leaf\"\nrate = 100\n", 100*10*5 + 10*3},
		// retries: 3 attempts x 5
		{"retries", "[[client]]\nname = \"c\"\ntarget = \"leaf\"\nrate = 100\ntimeout = \"1s\"\nretry = { attempts = 3 }\n", 100*10*15 + 10*3},
		// a load fault x 4 on the client's peak rate
		{"load fault", "[[client]]\nname = \"c\"\ntarget = \"leaf\"\nrate = 100\n[[fault]]\nkind = \"load\"\ntarget = \"c\"\nstart = \"1s\"\nduration = \"1s\"\nmultiply = 4\n", 400*10*5 + 10*3},
		// closed loop: 10 users x 10 s / (99 ms think + 1 ms work) = 1000 requests
		{"closed loop", "[[client]]\nname = \"c\"\ntarget = \"leaf\"\nusers = 10\nthink_time = { dist = \"constant\", mean = \"99ms\" }\n", 1000*5 + 10*3},
	}
	for _, s := range steps {
		exp, err := experiment.Parse("e.toml", []byte(base+s.extra))
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		got := Estimate(exp.Model).Events
		if d := got - s.want; d > 1e-6*s.want || d < -1e-6*s.want {
			t.Errorf("%s: %v events, want %v", s.name, got, s.want)
		}
	}
}

// TestEstimateOfBundledExperiments: the estimate never under-counts a
// bundled experiment's events and over-counts by less than 60 times
// (measured: 2.2 to 9.8, retry-budget.toml 50, whose retry budget turns
// almost every retry off); and every bundled run, comparison and sweep
// fits DefaultBudget.
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
		est := Estimate(exp.Model).Events
		res, err := runModel(exp.Model, nil)
		if err != nil {
			t.Fatal(err)
		}
		if ratio := est / float64(res.Events); ratio < 1 || ratio > 60 {
			t.Errorf("%s: estimated %.0f events, fired %d (ratio %.2f)", f, est, res.Events, ratio)
		}
		c := &Comparison{Replications: max(exp.Replications, 1), Arms: Arms(exp)}
		if err := DefaultBudget.Check(c.plan()); err != nil {
			t.Errorf("%s: compare: %v", f, err)
		}
		if exp.Sweep != nil {
			plan, err := sweepPlan(exp, max(exp.Replications, 1))
			if err != nil {
				t.Fatal(err)
			}
			if err := DefaultBudget.Check(plan); err != nil {
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

// TestMeterStops: the run-time guard stops on each budget, with the
// budget's name and flag, and on cancellation.
func TestMeterStops(t *testing.T) {
	g := newMeter(context.Background(), Budget{MaxEvents: 100000})
	var stop error
	for i := 0; i < 100 && stop == nil; i++ {
		stop = g.Check(16384)
	}
	var be *BudgetError
	if !errors.As(stop, &be) || be.Resource != "events" || be.Estimated || be.Used <= 100000 || !errors.Is(stop, ErrBudget) {
		t.Fatalf("events: %v", stop)
	}
	if err := newMeter(context.Background(), Budget{MaxMemory: 1}).Check(1); !errors.As(err, &be) || be.Resource != "memory" || be.Flag != "--max-memory" {
		t.Fatalf("memory: %v", err)
	}
	if err := newMeter(context.Background(), Budget{Timeout: 1}).Check(1); !errors.As(err, &be) || be.Resource != "wall time" || be.Flag != "--timeout" {
		t.Fatalf("wall time: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := newMeter(ctx, Budget{}).Check(1); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancel: %v", err)
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

// TestEstimateCountsEventLog: the memory estimate holds the event log at
// its cap, 120 bytes an event, and follows a configured cap.
func TestEstimateCountsEventLog(t *testing.T) {
	exp, err := experiment.Load(filepath.Join("testdata", "small.toml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := exp.Model
	def := Estimate(cfg).Memory
	cfg.EventLogCap = 2 * topology.DefaultEventLogCap
	if got, want := Estimate(cfg).Memory-def, float64(bytesPerEvent*topology.DefaultEventLogCap); got != want {
		t.Errorf("doubling the cap adds %g bytes, want %g", got, want)
	}
}

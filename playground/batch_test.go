package playground

import (
	"strings"
	"testing"
)

// TestCompareAPI: the page's comparison runs the base and every variant
// the asked number of times, gives a verdict per variant over all its
// replications, the CLI's three tables and its figures.
func TestCompareAPI(t *testing.T) {
	text := bundled(t, "breaker-order.toml")
	calls, last := 0, 0
	b := Compare(text, "", "2", func(done, total int) {
		calls++
		if total != 4 || done <= last {
			t.Errorf("progress %d/%d after %d: want 1..4 of 4", done, total, last)
		}
		last = done
	})
	if b.Error != "" || b.Stopped != "" {
		t.Fatalf("error %q stopped %q", b.Error, b.Stopped)
	}
	if b.Replications != 2 || b.Runs != 4 || calls != 4 || len(b.Arms) != 2 {
		t.Fatalf("replications %d runs %d progress calls %d arms %d; want 2, 4, 4, 2", b.Replications, b.Runs, calls, len(b.Arms))
	}
	for _, a := range b.Arms {
		n := 0
		for _, v := range a.Verdicts {
			n += v.Count
		}
		if n != 2 {
			t.Errorf("%s: verdicts %+v cover %d runs, want 2", a.Name, a.Verdicts, n)
		}
	}
	var names []string
	for _, f := range b.Files {
		names = append(names, f.File)
	}
	if got := strings.Join(names, " "); got != "compare.json compare.csv compare.md" {
		t.Errorf("files %q", got)
	}
	if len(b.Figures) < 4 || !strings.HasPrefix(b.Figures[0].SVG, "<?xml") && !strings.HasPrefix(b.Figures[0].SVG, "<svg") {
		t.Errorf("%d figures; want the timeline, overviews and bars as SVG", len(b.Figures))
	}
}

// TestBatchRefusals: files and settings the page cannot compare or sweep
// are refused with the reason, before any run.
func TestBatchRefusals(t *testing.T) {
	storm := bundled(t, "metastable-retry-storm.toml")
	for _, tc := range []struct {
		name string
		b    Batched
		want string
	}{
		{"no variants", Compare(bundled(t, "mm10.toml"), "", "", nil), "no [[variant]]"},
		{"no sweep", Sweep(storm, "", "", nil), "no [sweep]"},
		{"bad replications", Compare(storm, "", "0", nil), "replications"},
		{"bad seed", Sweep(bundled(t, "metastable-phase.toml"), "x", "1", nil), "seed"},
		{"invalid file", Compare(strings.Replace(storm, "workers = 10", "workers = -3", 1), "", "1", nil), "not valid"},
		{"over budget", Sweep(bundled(t, "metastable-phase.toml"), "", "10000", nil), "budget"},
	} {
		if !strings.Contains(tc.b.Error, tc.want) {
			t.Errorf("%s: error %q, want it to mention %q", tc.name, tc.b.Error, tc.want)
		}
	}
}

// TestValidateBatchInfo: validation tells the page what compare and sweep
// would run.
func TestValidateBatchInfo(t *testing.T) {
	c := Validate(bundled(t, "goodput-vs-load.toml"))
	in := c.Experiment
	if in == nil || strings.Join(in.Variants, ",") != "bounded-queue,adaptive-lifo" || in.Replications != 3 {
		t.Fatalf("info %+v", in)
	}
	// 8 loads x 3 variants.
	if in.Sweep == nil || in.Sweep.Cells != 24 || in.Sweep.Metric != "goodput" {
		t.Errorf("sweep %+v, want 24 cells of goodput", in.Sweep)
	}
}

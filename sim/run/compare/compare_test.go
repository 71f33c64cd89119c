package compare

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/output"
)

func loadVariants(t *testing.T) *experiment.Experiment {
	t.Helper()
	exp, err := experiment.Load(filepath.Join("..", "testdata", "variants.toml"))
	if err != nil {
		t.Fatal(err)
	}
	return exp
}

// TestCompareIndependentOfJobs: the merged outputs are byte-identical
// whatever the parallelism.
func TestCompareIndependentOfJobs(t *testing.T) {
	exp := loadVariants(t)
	var outs [3]*Output
	for i, j := range []int{1, 2, 4} {
		out, err := Run(context.Background(), exp, run.CompareOptions{Jobs: j, Plots: i < 2}, output.NewFolder(t.TempDir(), false))
		if err != nil {
			t.Fatal(err)
		}
		outs[i] = out
	}
	for _, name := range []string{JSONFile, CSVFile, MarkdownFile, SeriesFile} {
		a, _ := os.ReadFile(filepath.Join(outs[0].Dir, name))
		for _, o := range outs[1:] {
			b, _ := os.ReadFile(filepath.Join(o.Dir, name))
			if len(a) == 0 || !bytes.Equal(a, b) {
				t.Errorf("%s differs between -j 1 and another -j", name)
			}
		}
	}
	// The figures too, byte for byte, between -j 1 and -j 2.
	for _, f := range outs[0].Files[4:] {
		a, _ := os.ReadFile(f)
		b, _ := os.ReadFile(filepath.Join(outs[1].Dir, filepath.Base(f)))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s differs between -j 1 and -j 2", filepath.Base(f))
		}
	}
	if len(outs[0].Files) < 6 {
		t.Errorf("wrote %v; want the tables, the timeline and bar charts", outs[0].Files)
	}
}

func TestCompareStatistics(t *testing.T) {
	exp := loadVariants(t)
	c, err := RunAll(context.Background(), exp, run.CompareOptions{Jobs: 2, KeepRuns: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Arms) != 3 || c.Replications != 3 || c.Arms[1].Name != "no-retries" {
		t.Fatalf("arms %v x %d", c.Arms, c.Replications)
	}
	// Common random numbers: replication r of every variant has the same
	// seed, and replication 0 is the experiment's own seed.
	for a := range c.Arms {
		for r, res := range c.Runs[a] {
			if res.Seed != run.ReplicationSeed(3, r) {
				t.Errorf("arm %d rep %d seed %d", a, r, res.Seed)
			}
		}
	}
	if run.ReplicationSeed(3, 0) != 3 || run.ReplicationSeed(3, 1) == run.ReplicationSeed(3, 2) {
		t.Error("replication seeds: 0 must be the seed, others distinct")
	}
	stats, locked := c.Stats()
	good := stats[0]
	if good.Metric.Name != "goodput" || good.Arms[0].Diff != nil || good.Arms[1].Diff == nil {
		t.Fatal("goodput stats malformed")
	}
	if d := good.Arms[1].Diff; !(d.Defined && d.CI95.Lo > 0) {
		t.Errorf("no-retries vs base goodput difference %+v: want a significant gain", d)
	}
	if len(locked) != 3 || locked[0].Count < 2 || locked[1].Count != 0 {
		t.Errorf("locked in: %+v; want base mostly, no-retries never", locked)
	}
}

func TestCompareCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out, err := Run(ctx, loadVariants(t), run.CompareOptions{Jobs: 1}, output.NewFolder(t.TempDir(), false))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if out == nil || out.Comparison.Replications != 0 {
		t.Fatalf("a comparison cancelled before any run keeps no replication")
	}
}

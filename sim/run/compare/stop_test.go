package compare

import (
	"context"
	"errors"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
)

// TestStoppedCompareKeepsWholeReplications: a comparison stopped after
// its 7th run (3 variants, one job: replications 0 and 1 whole, and one
// run of replication 2) keeps replications 0 and 1, and the run in
// progress is abandoned.
func TestStoppedCompareKeepsWholeReplications(t *testing.T) {
	exp, err := experiment.Load("../testdata/variants.toml")
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
	c, err := RunAll(ctx, exp, run.CompareOptions{Jobs: 1, Replications: 50, Progress: progress})
	if !errors.Is(err, context.Canceled) || c == nil || c.Replications != 2 {
		t.Fatalf("err %v, comparison %v", err, c)
	}
	for a := range c.Arms {
		if len(c.Records[a]) != 2 || c.Records[a][1].Seed != run.ReplicationSeed(exp.Model.Seed, 1) {
			t.Errorf("arm %d: %d records", a, len(c.Records[a]))
		}
	}
}

// TestCompareKeepsRecordsNotResults: a comparison keeps every
// replication's record but only replication 0's whole result, so its
// memory does not grow with replications x series length.
func TestCompareKeepsRecordsNotResults(t *testing.T) {
	exp, err := experiment.Load("../testdata/variants.toml")
	if err != nil {
		t.Fatal(err)
	}
	c, err := RunAll(context.Background(), exp, run.CompareOptions{Jobs: 2, Replications: 6})
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

package run_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ressim/ressim/internal/runtest"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/compare"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/run/sweep"
)

// replicaSummary runs p with Execute and returns its summary.json bytes
// and headline.
func replicaSummary(t *testing.T, exp *experiment.Experiment, p run.Replica, seed *uint64) ([]byte, run.Headline) {
	t.Helper()
	out, err := run.Execute(exp, run.Options{Replica: &p, Seed: seed}, output.NewFolder(t.TempDir(), false))
	if err != nil {
		t.Fatalf("%s: %v", p.Label(), err)
	}
	b, err := os.ReadFile(filepath.Join(out.Dir, run.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	return b, run.NewHeadline(out.Result)
}

func digest(b []byte) string {
	d := sha256.Sum256(b)
	return hex.EncodeToString(d[:])
}

// TestReplicaReproducesCompare: every replication of every variant of a
// comparison, re-run alone, writes the summary.json bytes the comparison
// computed for it and digested into compare.json, with the same headline.
// A --seed override carries over to both.
func TestReplicaReproducesCompare(t *testing.T) {
	exp := loadVariants(t)
	seed := uint64(11)
	out, err := compare.Run(context.Background(), exp, run.CompareOptions{Jobs: 2, Seed: &seed, KeepRuns: true}, output.NewFolder(t.TempDir(), false))
	if err != nil {
		t.Fatal(err)
	}
	c := out.Comparison
	for a, arm := range c.Arms {
		for r := 0; r < c.Replications; r++ {
			got, h := replicaSummary(t, exp, run.Replica{Variant: arm.Name, Index: r}, &seed)
			want, err := run.SummaryJSON(c.Runs[a][r])
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s replication %d: summary.json differs from the comparison's run", arm.Name, r)
			}
			if digest(got) != c.Records[a][r].SummarySHA256 {
				t.Errorf("%s replication %d: digest differs from compare.json's", arm.Name, r)
			}
			if fmt.Sprint(h) != fmt.Sprint(c.Headlines[a][r]) {
				t.Errorf("%s replication %d: headline %+v, the comparison had %+v", arm.Name, r, h, c.Headlines[a][r])
			}
		}
	}
	checkCompareJSONRuns(t, filepath.Join(out.Dir, compare.JSONFile), c)
}

// checkCompareJSONRuns checks compare.json's per-replication lists
// against the comparison in memory.
func checkCompareJSONRuns(t *testing.T, path string, c *compare.Comparison) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Variants []struct {
			Name string              `json:"name"`
			Runs []run.RunRecordJSON `json:"replications"`
		} `json:"variants"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for a, v := range doc.Variants {
		if len(v.Runs) != c.Replications {
			t.Fatalf("%s lists %d replications, want %d", v.Name, len(v.Runs), c.Replications)
		}
		for r, rec := range v.Runs {
			res := c.Runs[a][r]
			if rec.Replication != r || rec.Seed != run.ReplicationSeed(c.Seed, r) || rec.Summary != c.Records[a][r].SummarySHA256 {
				t.Errorf("%s replication %d listed as %+v", v.Name, r, rec)
			}
			if len(rec.Faults) != len(res.Faults) || rec.Faults[0].Verdict != res.Faults[0].Recovery.Verdict {
				t.Errorf("%s replication %d: faults %+v, run had %+v", v.Name, r, rec.Faults, res.Faults)
			}
			if g := rec.Headline["goodput"]; g == nil || *g != c.Headlines[a][r].Goodput {
				t.Errorf("%s replication %d: goodput %v, want %v", v.Name, r, g, c.Headlines[a][r].Goodput)
			}
			if rec.LockedIn != c.Headlines[a][r].LockedIn {
				t.Errorf("%s replication %d: locked_in %v", v.Name, r, rec.LockedIn)
			}
		}
	}
}

// TestReplicaReproducesSweepCell: a sweep cell's replication, re-run
// alone with its cell indices, gives the summary the sweep digested.
func TestReplicaReproducesSweepCell(t *testing.T) {
	exp, err := experiment.Parse("sw.toml", []byte(runtest.SweepFile))
	if err != nil {
		t.Fatal(err)
	}
	out, err := sweep.Run(context.Background(), exp, run.CompareOptions{Jobs: 2}, output.NewFolder(t.TempDir(), false))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []run.Replica{{Variant: "no-retries", Index: 1, Cell: []int{1, 0}}, {Index: 0, Cell: []int{0, 1}}} {
		v := 0
		if p.Variant != "" {
			v = 1
		}
		got, _ := replicaSummary(t, exp, p, nil)
		if want := sweepDigest(t, out.Dir, out.Result.Variants[v], p); digest(got) != want {
			t.Errorf("%s: summary digest %s, the sweep's %s", p.Label(), digest(got), want)
		}
	}
	b, _ := os.ReadFile(filepath.Join(out.Dir, sweep.JSONFile))
	if !strings.Contains(string(b), `"x_index": 1`) || !strings.Contains(string(b), `"summary_sha256"`) {
		t.Errorf("sweep.json lacks cell indices or replications:\n%.2000s", b)
	}
}

func TestReplicaErrors(t *testing.T) {
	exp := loadVariants(t)
	sw, err := experiment.Parse("sw.toml", []byte(runtest.SweepFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		exp  *experiment.Experiment
		p    run.Replica
		want string
	}{
		{exp, run.Replica{Variant: "no-retry"}, `no variant named "no-retry" in testdata/variants.toml (did you mean "no-retries"?); the variants are: base, no-retries, propagation`},
		{exp, run.Replica{Variant: "zzz"}, `no variant named "zzz"`},
		{exp, run.Replica{Index: 3}, "replication 3 is out of range: variants runs 3 replication(s), 0 to 2"},
		{exp, run.Replica{Index: -1}, "replication -1 is out of range"},
		{exp, run.Replica{Index: 4, Replications: 4}, "replication 4 is out of range: variants runs 4"},
		{exp, run.Replica{Cell: []int{0}}, "has no [sweep] table"},
		{sw, run.Replica{Cell: []int{0}}, "the sweep has 2 axis(es): give 2 cell index(es), got 1"},
		{sw, run.Replica{Cell: []int{2, 0}}, "cell x index 2 is out of range: client.users.rate has 2 values, 0 to 1"},
		{sw, run.Replica{Cell: []int{0, -1}}, "cell y index -1 is out of range: fault.0.duration"},
		{sw, run.Replica{Variant: "no-retires", Cell: []int{0, 0}}, `did you mean "no-retries"?`},
	} {
		_, err := run.ReplicaModel(tt.exp, tt.p, 1)
		if !errors.Is(err, run.ErrNoSuchRun) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: err = %v, want run.ErrNoSuchRun and %q", tt.p, err, tt.want)
		}
	}
	// Within a --replications override any index is a run.
	if _, err := run.ReplicaModel(exp, run.Replica{Index: 7, Replications: 8}, 1); err != nil {
		t.Errorf("index 7 of 8: %v", err)
	}
}

// sweepDigest is the summary digest sweep.json (in dir) lists for
// replica p of the sweep's variant v.
func sweepDigest(t *testing.T, dir, v string, p run.Replica) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, sweep.JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cells []struct {
			Variant string
			X       int  `json:"x_index"`
			Y       *int `json:"y_index"`
			Runs    []struct {
				Summary string `json:"summary_sha256"`
			} `json:"replications"`
		}
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for _, c := range doc.Cells {
		if c.Variant == v && c.X == p.Cell[0] && c.Y != nil && *c.Y == p.Cell[1] {
			return c.Runs[p.Index].Summary
		}
	}
	t.Fatalf("sweep.json has no cell %v of %s", p.Cell, v)
	return ""
}

// loadVariants loads testdata/variants.toml by its relative path, which
// the error messages name.
func loadVariants(t *testing.T) *experiment.Experiment {
	t.Helper()
	exp, err := experiment.Load("testdata/variants.toml")
	if err != nil {
		t.Fatal(err)
	}
	return exp
}

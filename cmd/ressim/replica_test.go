package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const variantsFile = "../../sim/run/testdata/variants.toml"

func fileDigest(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d := sha256.Sum256(b)
	return hex.EncodeToString(d[:])
}

// listedRun is one replication as compare.json lists it.
type listedRun struct {
	Seed     uint64              `json:"seed"`
	Summary  string              `json:"summary_sha256"`
	Headline map[string]*float64 `json:"headline"`
}

// listedRuns reads the per-replication lists of a compare.json: variant
// name -> its replications.
func listedRuns(t *testing.T, path string) map[string][]listedRun {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Variants []struct {
			Name string      `json:"name"`
			Runs []listedRun `json:"replications"`
		} `json:"variants"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string][]listedRun{}
	for _, v := range doc.Variants {
		out[v.Name] = v.Runs
	}
	return out
}

// TestRunReplicaMatchesCompare: ressim run --variant V --replication K
// writes the summary.json whose digest compare.json lists for that run;
// and a plain ressim run is the base's replication 0.
func TestRunReplicaMatchesCompare(t *testing.T) {
	dir := t.TempDir()
	if code, _, errOut := ressim("compare", variantsFile, "-o", filepath.Join(dir, "cmp"), "--no-plots", "-j", "2"); code != exitOK {
		t.Fatalf("compare: exit %d: %s", code, errOut)
	}
	runs := listedRuns(t, filepath.Join(dir, "cmp", "compare.json"))
	for _, tt := range []struct {
		args    []string
		variant string
		rep     int
	}{
		{[]string{"--variant", "no-retries", "--replication", "2"}, "no-retries", 2},
		{[]string{"--variant", "base", "--replication", "1"}, "base", 1},
		{[]string{"--replication", "1", "--variant", "propagation"}, "propagation", 1},
		{nil, "base", 0},
	} {
		out := filepath.Join(dir, tt.variant+strings.Join(tt.args, ""))
		code, stdout, errOut := ressim(append([]string{"run", variantsFile, "-o", out, "--no-plots"}, tt.args...)...)
		if code != exitOK {
			t.Fatalf("run %v: exit %d: %s", tt.args, code, errOut)
		}
		want := runs[tt.variant][tt.rep]
		if got := fileDigest(t, filepath.Join(out, "summary.json")); got != want.Summary {
			t.Errorf("run %v: summary.json digest %s, compare.json lists %s", tt.args, got, want.Summary)
		}
		if tt.args != nil && !strings.Contains(stdout, "replica "+tt.variant+"-r") {
			t.Errorf("run %v does not say which replica it ran:\n%s", tt.args, stdout)
		}
	}
}

func TestRunReplicaErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--variant", "no-retry"}, `no variant named "no-retry" in ` + variantsFile + ` (did you mean "no-retries"?)`},
		{[]string{"--variant", "propagaton", "--replication", "1"}, `did you mean "propagation"?`},
		{[]string{"--replication", "3"}, "replication 3 is out of range: variants runs 3 replication(s), 0 to 2 (pass --replications N"},
		{[]string{"--replication", "-1"}, "replication -1 is out of range"},
		{[]string{"--replication", "5", "--replications", "5"}, "replication 5 is out of range"},
		{[]string{"--cell", "1"}, "has no [sweep] table"},
		{[]string{"--cell", "a,b"}, "--cell: expected X or X,Y"},
		{[]string{"--cell", "1,2,3"}, "--cell: expected X or X,Y"},
	} {
		code, _, errOut := ressim(append([]string{"run", variantsFile, "-o", dir, "--no-plots"}, tt.args...)...)
		if code != exitInvalid || !strings.Contains(errOut, tt.want) {
			t.Errorf("run %v: exit %d, stderr %q; want exit %d and %q", tt.args, code, errOut, exitInvalid, tt.want)
		}
	}
}

// TestRunSweepCellMatchesSweep: --cell X,Y picks the cell sweep.json lists
// with x_index X and y_index Y.
func TestRunSweepCellMatchesSweep(t *testing.T) {
	src, err := os.ReadFile(variantsFile)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	f := filepath.Join(dir, "sw.toml")
	sweep := "\n[sweep]\nvariants = [\"base\", \"no-retries\"]\n" +
		"x = { path = \"client.users.rate\", values = [200, 400] }\n" +
		"y = { path = \"fault.0.duration\", values = [\"1s\", \"3s\"] }\n"
	os.WriteFile(f, append(src, sweep...), 0o644)
	if code, _, errOut := ressim("sweep", f, "-o", filepath.Join(dir, "sw"), "--no-plots", "--replications", "2"); code != exitOK {
		t.Fatalf("sweep: exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(filepath.Join(dir, "sw", "sweep.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cells []struct {
			Variant string `json:"variant"`
			X       int    `json:"x_index"`
			Y       *int   `json:"y_index"`
			Runs    []struct {
				Summary string `json:"summary_sha256"`
			} `json:"replications"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range doc.Cells {
		if c.Variant != "no-retries" || c.X != 1 || c.Y == nil || *c.Y != 0 {
			continue
		}
		found = true
		out := filepath.Join(dir, "cell")
		code, _, errOut := ressim("run", f, "-o", out, "--no-plots", "--variant", "no-retries", "--cell", "1,0", "--replication", "1", "--replications", "2")
		if code != exitOK {
			t.Fatalf("run --cell: exit %d: %s", code, errOut)
		}
		if got := fileDigest(t, filepath.Join(out, "summary.json")); got != c.Runs[1].Summary {
			t.Errorf("cell (1, 0) replication 1: digest %s, sweep.json lists %s", got, c.Runs[1].Summary)
		}
	}
	if !found {
		t.Fatal("sweep.json has no cell no-retries x_index 1 y_index 0")
	}
	code, _, errOut := ressim("run", f, "-o", dir, "--no-plots", "--cell", "2,0")
	if code != exitInvalid || !strings.Contains(errOut, "cell x index 2 is out of range: client.users.rate has 2 values") {
		t.Errorf("--cell 2,0: exit %d, %s", code, errOut)
	}
}

// TestCompareSeriesFlag: --series none writes no timeseries.csv, --series
// all every replication's; a bad value exits 2 before running anything.
func TestCompareSeriesFlag(t *testing.T) {
	dir := t.TempDir()
	rows := map[string]int{}
	for _, mode := range []string{"all", "first", "none"} {
		out := filepath.Join(dir, mode)
		if code, _, errOut := ressim("compare", variantsFile, "-o", out, "--no-plots", "--series", mode); code != exitOK {
			t.Fatalf("--series %s: exit %d: %s", mode, code, errOut)
		}
		b, err := os.ReadFile(filepath.Join(out, "timeseries.csv"))
		if mode == "none" {
			if err == nil {
				t.Errorf("--series none wrote timeseries.csv")
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		rows[mode] = strings.Count(string(b), "\n") - 1 // less the header
	}
	// 3 replications of equal length: all has 3 times first's rows.
	if rows["first"] == 0 || rows["all"] != 3*rows["first"] {
		t.Errorf("timeseries.csv: all %d rows, first %d; want 3 times", rows["all"], rows["first"])
	}
	code, _, errOut := ressim("compare", variantsFile, "-o", dir, "--series", "every")
	if code != exitInvalid || !strings.Contains(errOut, `--series must be one of all, first, none, got "every"`) {
		t.Errorf("--series every: exit %d, %s", code, errOut)
	}
}

// FuzzParseCell: --cell either fails or gives one or two non-negative
// indices that print back to an equivalent selector.
func FuzzParseCell(f *testing.F) {
	for _, s := range []string{"0", "2,1", " 3 , 4 ", "-1", "1,2,3", "", ",", "a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cell, err := parseCell(s)
		if err != nil {
			return
		}
		if len(cell) < 1 || len(cell) > 2 {
			t.Fatalf("%q: %v", s, cell)
		}
		for _, i := range cell {
			if i < 0 {
				t.Fatalf("%q: negative index %d", s, i)
			}
		}
		again, err := parseCell(strings.Trim(strings.Join(strings.Fields(fmt.Sprint(cell)), ","), "[]"))
		if err != nil || fmt.Sprint(again) != fmt.Sprint(cell) {
			t.Fatalf("%q -> %v does not round-trip: %v, %v", s, cell, again, err)
		}
	})
}

package shard

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
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/runner"
)

// forgeGoodput rewrites the first unit line of the partial file at path
// with its goodput set to value, and the line's SHA-256 recomputed as a
// forger would: the checksum is over the unit's data alone, with nothing
// secret in it, so it guards against corruption, not against an edit.
// It returns the unit forged.
func forgeGoodput(t *testing.T, path, value string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(b, []byte("\n"))
	if len(lines) < 2 || len(lines[1]) == 0 {
		t.Fatalf("%s holds no unit line", path)
	}
	// The unit line as run.UnitLine writes it: the unit's data as JSON,
	// its headline's floats as text, and that JSON's SHA-256.
	var pu struct {
		Unit   int             `json:"unit"`
		Data   json.RawMessage `json:"data"`
		SHA256 string          `json:"sha256"`
	}
	if err := json.Unmarshal(lines[1], &pu); err != nil {
		t.Fatal(err)
	}
	var w map[string]json.RawMessage
	if err := json.Unmarshal(pu.Data, &w); err != nil {
		t.Fatal(err)
	}
	var floats map[string]string
	if err := json.Unmarshal(w["headline"], &floats); err != nil {
		t.Fatal(err)
	}
	if floats["goodput"] == value {
		t.Fatalf("unit %d's goodput is already %s", pu.Unit, value)
	}
	floats["goodput"] = value
	if w["headline"], err = json.Marshal(floats); err != nil {
		t.Fatal(err)
	}
	if pu.Data, err = json.Marshal(w); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(pu.Data)
	pu.SHA256 = hex.EncodeToString(sum[:])
	line, err := json.Marshal(pu)
	if err != nil {
		t.Fatal(err)
	}
	lines[1] = append(line, '\n')
	if err := os.WriteFile(path, bytes.Join(lines, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	return pu.Unit
}

// A unit whose goodput was edited and its checksum recomputed passes
// every check of a merge without --verify, which writes the forged value
// into sweep.json: the per-line SHA-256 catches corruption, not forgery.
// Verify re-runs units and refuses it, naming the file, line and unit,
// and writes nothing; a Verify that happens not to choose the forged unit
// lets it through, which is the price of checking K units, not all.
func TestMergeForgedUnit(t *testing.T) {
	exp, data := loadSweep(t, "sweep-small.toml")
	paths := runShards(t, exp, data, 2, filepath.Join(t.TempDir(), "parts"))
	const forged = "12345.678"
	u := forgeGoodput(t, paths[1], forged)
	dir := t.TempDir()
	merge := func(name string, opt MergeOptions) (string, error) {
		opt.OutDir = filepath.Join(dir, name)
		_, err := Merge(context.Background(), paths, opt)
		return opt.OutDir, err
	}

	out, err := merge("unverified", MergeOptions{})
	if err != nil {
		t.Fatalf("merge of the forged partial without Verify: %v", err)
	}
	if sj, err := os.ReadFile(filepath.Join(out, "sweep.json")); err != nil || !strings.Contains(string(sj), forged) {
		t.Fatalf("sweep.json does not hold the forged goodput %s (%v): the test no longer forges", forged, err)
	}

	// Seeds whose choice of 3 of the 36 units holds the forged unit, and
	// one whose choice does not.
	with, without := -1, -1
	for s := 0; s < 1000 && (with < 0 || without < 0); s++ {
		if slices.Contains(chooseUnits(36, 3, uint64(s)), u) {
			with = max(with, s)
		} else {
			without = max(without, s)
		}
	}
	if with < 0 || without < 0 {
		t.Fatalf("no seed below 1000 chooses unit %d (%d), or none leaves it (%d)", u, with, without)
	}
	want := fmt.Sprintf("%s:2: unit %d (replication 0 of variant", paths[1], u)
	for _, tc := range []struct {
		name string
		opt  MergeOptions
	}{
		{"all", MergeOptions{Verify: 1000}},
		{"chosen", MergeOptions{Verify: 3, VerifySeed: ptr(uint64(with))}},
	} {
		out, err := merge(tc.name, tc.opt)
		if !errors.Is(err, ErrPartial) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "differs from the same unit run again") {
			t.Errorf("Verify %s: %v, want a refusal containing %q", tc.name, err, want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("Verify %s: a refused merge left %s: %v", tc.name, out, err)
		}
	}
	got, err := Merge(context.Background(), paths, MergeOptions{OutDir: filepath.Join(dir, "missed"), Verify: 3, VerifySeed: ptr(uint64(without))})
	if err != nil || got.Verified == nil || slices.Contains(got.Verified.Units, u) || len(got.Verified.Units) != 3 {
		t.Fatalf("Verify 3 not choosing unit %d: %+v, %v; want the forgery missed", u, got, err)
	}
}

func ptr[T any](x T) *T { return &x }

// On honest partials, a merge that re-runs every unit accepts them and
// writes the same bytes as a merge without Verify, for a sweep and for a
// comparison (whose units carry histograms and series). The shards are
// first resumed once, which rewrites every line from its decoded data:
// what a resumed shard writes must be what a re-run writes.
func TestMergeVerifyHonest(t *testing.T) {
	for _, kind := range []string{"sweep", "compare"} {
		t.Run(kind, func(t *testing.T) {
			file := kind + "-small.toml"
			exp, data := loadSweep(t, file)
			shard := RunSweepShard
			if kind == "compare" {
				shard = RunCompareShard
			}
			parts := filepath.Join(t.TempDir(), "parts")
			var paths []string
			for pass := 0; pass < 2; pass++ { // the second pass resumes
				paths = paths[:0]
				for i := 0; i < 3; i++ {
					sr, err := shard(context.Background(), exp, file, data, Shard{i, 3}, run.CompareOptions{OutDir: parts, Jobs: 2})
					if err != nil {
						t.Fatal(err)
					}
					if pass == 1 && sr.Ran != 0 {
						t.Fatalf("the resume ran %d unit(s)", sr.Ran)
					}
					paths = append(paths, sr.Path)
				}
			}
			plain := filepath.Join(t.TempDir(), "plain")
			if _, err := Merge(context.Background(), paths, MergeOptions{OutDir: plain, Plots: true}); err != nil {
				t.Fatal(err)
			}
			verified := filepath.Join(t.TempDir(), "verified")
			out, err := Merge(context.Background(), paths, MergeOptions{OutDir: verified, Plots: true, Verify: 1 << 20, Jobs: 2})
			if err != nil {
				t.Fatalf("Verify of honest partials: %v", err)
			}
			v := out.Verified
			if v == nil || v.Total == 0 || len(v.Units) != v.Total || v.Units[0] != 0 || v.Units[v.Total-1] != v.Total-1 {
				t.Fatalf("Verified %+v, want every unit", v)
			}
			sameTree(t, plain, verified)
		})
	}
}

// Every run a merge makes is under its budget: the units Verify re-runs,
// and a comparison's replication 0 of each variant, which it re-runs
// without Verify (on main, with no budget at all, so that a crafted
// partial could make the merge run anything). An estimate over the budget
// refuses before any run; a budget passed while running stops it. Either
// way the error is runner.ErrBudget, not a refusal of the partials, and nothing
// is written.
func TestMergeBudget(t *testing.T) {
	sw, sdata := loadSweep(t, "sweep-tiny.toml")
	sweep := runShards(t, sw, sdata, 1, filepath.Join(t.TempDir(), "sweep"))
	cmp, cdata := loadSweep(t, "compare-small.toml")
	sr, err := RunCompareShard(context.Background(), cmp, "compare-small.toml", cdata, Shard{0, 1}, run.CompareOptions{OutDir: filepath.Join(t.TempDir(), "compare"), Replications: 1})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		name      string
		paths     []string
		opt       MergeOptions
		resource  string
		estimated bool
	}{
		{"sweep verify, events", sweep, MergeOptions{Verify: 3, Budget: runner.Budget{MaxEvents: 10}}, "events", true},
		{"sweep verify 2 of 3, events", sweep, MergeOptions{Verify: 2, Budget: runner.Budget{MaxEvents: 10}}, "events", true},
		{"sweep verify, wall time", sweep, MergeOptions{Verify: 3, Budget: runner.Budget{Timeout: time.Nanosecond}}, "wall time", false},
		{"compare replication 0, events", []string{sr.Path}, MergeOptions{Budget: runner.Budget{MaxEvents: 10}}, "events", true},
		{"compare replication 0, wall time", []string{sr.Path}, MergeOptions{Budget: runner.Budget{Timeout: time.Nanosecond}}, "wall time", false},
	} {
		tc.opt.OutDir = filepath.Join(dir, "out")
		_, err := Merge(context.Background(), tc.paths, tc.opt)
		var be *runner.BudgetError
		if !errors.As(err, &be) || be.Resource != tc.resource || be.Estimated != tc.estimated || errors.Is(err, ErrPartial) {
			t.Errorf("%s: %v, want a %s budget error (estimated %v)", tc.name, err, tc.resource, tc.estimated)
		}
		if _, err := os.Stat(tc.opt.OutDir); !os.IsNotExist(err) {
			t.Errorf("%s: a stopped merge left an output folder: %v", tc.name, err)
		}
	}
	// Without Verify a sweep's merge runs nothing: no budget to pass.
	if _, err := Merge(context.Background(), sweep, MergeOptions{OutDir: filepath.Join(dir, "sweep-out"), Budget: runner.Budget{MaxEvents: 10}}); err != nil {
		t.Errorf("sweep merge without Verify under a tiny budget: %v", err)
	}
}

// chooseUnits draws k distinct units, increasing, from the seed alone,
// all of them when k is not less than the units, and every unit about
// equally often over seeds (a fixed set of seeds: the test is exact).
func TestChooseUnits(t *testing.T) {
	for _, tc := range []struct{ total, k int }{{1, 1}, {5, 5}, {5, 9}, {36, 3}, {36, 35}, {1000, 17}} {
		got := chooseUnits(tc.total, tc.k, 42)
		if want := min(tc.k, tc.total); len(got) != want {
			t.Fatalf("%d of %d: %d units, want %d", tc.k, tc.total, len(got), want)
		}
		for i, u := range got {
			if u < 0 || u >= tc.total || (i > 0 && u <= got[i-1]) {
				t.Fatalf("%d of %d: %v is not increasing within [0, %d)", tc.k, tc.total, got, tc.total)
			}
		}
		if again := chooseUnits(tc.total, tc.k, 42); !slices.Equal(got, again) {
			t.Fatalf("%d of %d: seed 42 chose %v, then %v", tc.k, tc.total, got, again)
		}
	}
	if a, b := chooseUnits(1000, 17, 1), chooseUnits(1000, 17, 2); slices.Equal(a, b) {
		t.Fatalf("seeds 1 and 2 chose the same units %v", a)
	}
	const seeds, total, k = 4000, 8, 2
	var count [total]int
	for s := uint64(0); s < seeds; s++ {
		for _, u := range chooseUnits(total, k, s) {
			count[u]++
		}
	}
	for u, n := range count {
		if want := seeds * k / total; n < want*9/10 || n > want*11/10 {
			t.Errorf("unit %d chosen %d times over %d seeds, want about %d: %v", u, n, seeds, want, count)
		}
	}
}

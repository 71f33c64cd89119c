package shard

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/compare"
	"github.com/ressim/ressim/sim/run/output"
)

// For every N from 1 to 7, the merge of a comparison's shards writes the
// unsharded comparison's files byte for byte: tables, compare.json's
// merged histograms, timeseries.csv (replication 0, re-run by the merge)
// and every figure, the overlay means included.
func TestCompareShardMergeMatchesUnsharded(t *testing.T) {
	exp, data := loadSweep(t, "compare-small.toml")
	full := filepath.Join(t.TempDir(), "full")
	if _, err := compare.Run(context.Background(), exp, run.CompareOptions{Jobs: 2, Plots: true}, output.NewFolder(full, false)); err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 7; n++ {
		parts := filepath.Join(t.TempDir(), "parts")
		for i := 0; i < n; i++ {
			if _, err := RunCompareShard(context.Background(), exp, "compare-small.toml", data, Shard{i, n}, run.CompareOptions{OutDir: parts, Jobs: 2}); err != nil {
				t.Fatal(err)
			}
		}
		files, err := PartialPaths([]string{parts})
		if err != nil {
			t.Fatal(err)
		}
		merged := filepath.Join(t.TempDir(), "merged")
		out, err := Merge(context.Background(), files, MergeOptions{OutDir: merged, Plots: true})
		if err != nil {
			t.Fatalf("N=%d: %v", n, err)
		}
		if out.Compare == nil || out.Sweep != nil {
			t.Fatalf("N=%d: merged a %+v, want a comparison", n, out)
		}
		sameTree(t, full, merged)
	}
}

// A comparison refuses to shard series "all", and a merge refuses to mix
// a comparison's partials with a sweep's, and a comparison's partial that
// ends in a torn line.
func TestCompareShardRefusals(t *testing.T) {
	exp, data := loadSweep(t, "compare-small.toml")
	dir := t.TempDir()
	_, err := RunCompareShard(context.Background(), exp, "compare-small.toml", data, Shard{0, 1}, run.CompareOptions{OutDir: dir, Series: experiment.SeriesAll})
	if err == nil || !strings.Contains(err.Error(), "cannot be sharded") {
		t.Fatalf("series all: %v", err)
	}
	exp.Replications = 1
	cmp, err := RunCompareShard(context.Background(), exp, "compare-small.toml", data, Shard{0, 2}, run.CompareOptions{OutDir: dir, Replications: 1})
	if err != nil {
		t.Fatal(err)
	}
	sw, sdata := loadSweep(t, "sweep-tiny.toml")
	swp, err := RunSweepShard(context.Background(), sw, "sweep-tiny.toml", sdata, Shard{1, 2}, run.CompareOptions{OutDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Merge(context.Background(), []string{cmp.Path, swp.Path}, MergeOptions{OutDir: filepath.Join(dir, "out")})
	if !errors.Is(err, ErrPartial) || !strings.Contains(err.Error(), "kind or series") {
		t.Fatalf("mixed kinds: %v", err)
	}
	// A comparison's shard killed while writing its last line.
	b, err := os.ReadFile(cmp.Path)
	if err != nil {
		t.Fatal(err)
	}
	torn := filepath.Join(dir, "torn.jsonl")
	os.WriteFile(torn, b[:len(b)-10], 0o644)
	_, err = Merge(context.Background(), []string{torn}, MergeOptions{OutDir: filepath.Join(dir, "out")})
	if !errors.Is(err, ErrPartial) || !strings.Contains(err.Error(), "torn.jsonl ends in a torn line") {
		t.Fatalf("torn comparison partial: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); !os.IsNotExist(err) {
		t.Fatalf("refused merge left output: %v", err)
	}
}

package shard

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/run/sweep"
)

func loadSweep(t *testing.T, name string) (*experiment.Experiment, []byte) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	exp, err := experiment.Parse(name, data)
	if err != nil {
		t.Fatal(err)
	}
	return exp, data
}

// runShards runs every shard of n into dir and returns the partial files.
func runShards(t *testing.T, exp *experiment.Experiment, data []byte, n int, dir string) []string {
	t.Helper()
	var paths []string
	for i := 0; i < n; i++ {
		sr, err := RunSweepShard(context.Background(), exp, "sweep-small.toml", data, Shard{i, n}, run.CompareOptions{OutDir: dir, Jobs: 2})
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, sr.Path)
	}
	return paths
}

// sameTree fails unless folders a and b hold the same files, byte for byte.
func sameTree(t *testing.T, a, b string) {
	t.Helper()
	ea, _ := os.ReadDir(a)
	eb, _ := os.ReadDir(b)
	if len(ea) != len(eb) || len(ea) == 0 {
		t.Fatalf("%s has %d files, %s has %d", a, len(ea), b, len(eb))
	}
	for i, e := range ea {
		if e.Name() != eb[i].Name() {
			t.Fatalf("file %d: %s vs %s", i, e.Name(), eb[i].Name())
		}
		x, _ := os.ReadFile(filepath.Join(a, e.Name()))
		y, _ := os.ReadFile(filepath.Join(b, e.Name()))
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between %s and %s", e.Name(), a, b)
		}
	}
}

func unsharded(t *testing.T, exp *experiment.Experiment) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "full")
	if _, err := sweep.Run(context.Background(), exp, run.CompareOptions{Jobs: 2, Plots: true}, output.NewFolder(dir, false)); err != nil {
		t.Fatal(err)
	}
	return dir
}

// For every N from 1 to 7 (7 and more leave some shards few units; the
// 36 units of sweep-small dealt to 7 shards), the merge of the shards
// writes the unsharded sweep's files byte for byte, figures included.
func TestShardMergeMatchesUnsharded(t *testing.T) {
	exp, data := loadSweep(t, "sweep-small.toml")
	full := unsharded(t, exp)
	for n := 1; n <= 7; n++ {
		parts := filepath.Join(t.TempDir(), "parts")
		runShards(t, exp, data, n, parts)
		merged := filepath.Join(t.TempDir(), "merged")
		files, err := PartialPaths([]string{parts})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Merge(context.Background(), files, MergeOptions{OutDir: merged, Plots: true}); err != nil {
			t.Fatalf("N=%d: %v", n, err)
		}
		sameTree(t, full, merged)
	}
}

// Shards that hold no unit (more shards than units) write a header-only
// partial, and the merge still matches.
func TestShardMergeEmptyShards(t *testing.T) {
	exp, data := loadSweep(t, "sweep-tiny.toml")
	full := unsharded(t, exp)
	parts := filepath.Join(t.TempDir(), "parts")
	paths := runShards(t, exp, data, 5, parts)
	empty := 0
	for _, p := range paths {
		pf, err := readPartial(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(pf.Order) == 0 {
			empty++
		}
	}
	if empty != 2 {
		t.Fatalf("%d empty shards, want 2 (3 units in 5 shards)", empty)
	}
	merged := filepath.Join(t.TempDir(), "merged")
	if _, err := Merge(context.Background(), []string{filepath.Join(parts, "*.partial.jsonl")}, MergeOptions{OutDir: merged, Plots: true}); err == nil {
		t.Fatal("Merge took a glob: PartialPaths expands them, MergeSweep takes files")
	}
	files, err := PartialPaths([]string{filepath.Join(parts, "*.partial.jsonl")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Merge(context.Background(), files, MergeOptions{OutDir: merged, Plots: true}); err != nil {
		t.Fatal(err)
	}
	sameTree(t, full, merged)
}

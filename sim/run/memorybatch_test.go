package run

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run/runner"
)

// sameFiles checks that every in-memory file and SVG figure has the bytes
// of the file of that name in dir, and that there are figures.
func sameFiles(t *testing.T, dir string, files []MemoryFile, figs []MemoryFigure, wantFigs int) {
	t.Helper()
	for _, f := range files {
		want, err := os.ReadFile(filepath.Join(dir, f.File))
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Data) == 0 || !bytes.Equal(f.Data, want) {
			t.Errorf("%s differs from the file written", f.File)
		}
	}
	if len(figs) != wantFigs {
		t.Errorf("%d figures, want %d", len(figs), wantFigs)
	}
	for _, f := range figs {
		want, err := os.ReadFile(filepath.Join(dir, f.File))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(f.SVG, want) {
			t.Errorf("%s differs from the file written", f.File)
		}
	}
}

// TestCompareMemoryMatchesCompare: the playground's in-memory comparison
// gives compare.json, .csv, .md and every SVG figure byte for byte as
// Compare writes them, and the same expectation results.
func TestCompareMemoryMatchesCompare(t *testing.T) {
	exp := loadVariants(t)
	seed := uint64(11)
	opt := CompareOptions{Seed: &seed, Replications: 2, Jobs: 2}
	mem, err := CompareMemory(context.Background(), exp, opt)
	if err != nil {
		t.Fatal(err)
	}
	disk := opt
	disk.OutDir, disk.Plots, disk.SVG, disk.Series = t.TempDir(), true, true, experiment.SeriesNone
	if _, err := Compare(context.Background(), exp, disk); err != nil {
		t.Fatal(err)
	}
	if len(mem.Files) != 3 {
		t.Fatalf("files %d, want compare.json, .csv, .md", len(mem.Files))
	}
	// The timeline, one overview per variant, a bar chart per metric with
	// a value, and the locked-in bars when there is a fault.
	figs, _ := os.ReadDir(disk.OutDir)
	svgs := 0
	for _, f := range figs {
		if filepath.Ext(f.Name()) == ".svg" {
			svgs++
		}
	}
	sameFiles(t, disk.OutDir, mem.Files, mem.Figures, svgs)
	if len(mem.Expectations) != len(exp.Expects) {
		t.Errorf("%d expectation results, want %d", len(mem.Expectations), len(exp.Expects))
	}
}

// TestSweepMemoryMatchesRunSweep: the same for a sweep.
func TestSweepMemoryMatchesRunSweep(t *testing.T) {
	exp, err := experiment.Parse("sw.toml", []byte(sweepFile))
	if err != nil {
		t.Fatal(err)
	}
	mem, err := SweepMemory(context.Background(), exp, CompareOptions{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := RunSweep(context.Background(), exp, CompareOptions{OutDir: dir, Plots: true, SVG: true}); err != nil {
		t.Fatal(err)
	}
	// Two variants over two axes: a phase diagram each.
	sameFiles(t, dir, mem.Files, mem.Figures, 2)
}

// TestBatchMemoryBudget: a comparison or sweep over the budget is refused
// before any run, with runner.ErrBudget.
func TestBatchMemoryBudget(t *testing.T) {
	exp, err := experiment.Parse("sw.toml", []byte(sweepFile))
	if err != nil {
		t.Fatal(err)
	}
	tiny := CompareOptions{Budget: runner.Budget{MaxEvents: 1000}}
	if _, err := SweepMemory(context.Background(), exp, tiny); !errors.Is(err, runner.ErrBudget) {
		t.Errorf("sweep: err = %v, want runner.ErrBudget", err)
	}
	if _, err := CompareMemory(context.Background(), exp, tiny); !errors.Is(err, runner.ErrBudget) {
		t.Errorf("compare: err = %v, want runner.ErrBudget", err)
	}
}

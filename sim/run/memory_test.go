package run

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
)

// TestExecuteMemoryMatchesExecute: the playground's in-memory run gives
// the bytes Execute writes: summary.json and every SVG figure.
func TestExecuteMemoryMatchesExecute(t *testing.T) {
	exp, err := experiment.Load("../../experiments/mm10.toml")
	if err != nil {
		t.Fatal(err)
	}
	seed := uint64(7)
	dir := t.TempDir()
	if _, err := Execute(exp, Options{OutDir: dir, Seed: &seed, Plots: true, SVG: true}); err != nil {
		t.Fatal(err)
	}
	mem, err := ExecuteMemory(exp, Options{Seed: &seed})
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(dir, SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(mem.Summary, want) {
		t.Errorf("summary.json differs from Execute's")
	}
	if len(mem.Figures) == 0 {
		t.Fatal("no figures")
	}
	for _, f := range mem.Figures {
		want, err := os.ReadFile(filepath.Join(dir, f.File))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(f.SVG, want) {
			t.Errorf("%s differs from Execute's", f.File)
		}
	}
}

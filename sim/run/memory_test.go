package run

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
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

// TestExecuteMemoryObserve: Observe hears the stages in order, each
// figure once, the same figure ExecuteMemory returns, as soon as it is
// drawn (before the next one).
func TestExecuteMemoryObserve(t *testing.T) {
	exp, err := experiment.Load("../../experiments/mm10.toml")
	if err != nil {
		t.Fatal(err)
	}
	var stages []string
	var seen []MemoryFigure
	mem, err := ExecuteMemory(exp, Options{Observe: func(stage string, fig *MemoryFigure) {
		if (stage == "figure") != (fig != nil) {
			t.Errorf("stage %q with figure %v", stage, fig)
		}
		stages = append(stages, stage)
		if fig != nil {
			seen = append(seen, *fig)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	// The overview is drawn before summary.json, the page's first sight.
	want := []string{"simulated", "figure", "summary"}
	for range mem.Figures[1:] {
		want = append(want, "figure")
	}
	if strings.Join(stages, ",") != strings.Join(want, ",") {
		t.Errorf("stages %v, want %v", stages, want)
	}
	for i, f := range mem.Figures {
		if i >= len(seen) || seen[i].File != f.File || !bytes.Equal(seen[i].SVG, f.SVG) {
			t.Errorf("figure %d (%s): observed differently from the one returned", i, f.File)
		}
	}
}

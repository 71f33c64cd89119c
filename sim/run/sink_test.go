package run

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ressim/ressim/internal/runtest"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run/output"
)

// executeMemory runs exp into a Memory sink and returns the sink.
func executeMemory(exp *experiment.Experiment, opt Options) (*output.Memory, error) {
	mem := &output.Memory{}
	_, err := Execute(exp, opt, mem)
	return mem, err
}

// TestSinksSameRun: a run into the Memory sink gives the bytes the
// Folder sink writes: summary.json and every SVG figure.
func TestSinksSameRun(t *testing.T) {
	exp, err := experiment.Load("../../experiments/mm10.toml")
	if err != nil {
		t.Fatal(err)
	}
	seed := uint64(7)
	dir := t.TempDir()
	out, err := Execute(exp, Options{Seed: &seed, Plots: true}, output.NewFolder(dir, true))
	if err != nil {
		t.Fatal(err)
	}
	if out.Dir != dir || len(out.Files) == 0 || filepath.Dir(out.Files[0]) != dir {
		t.Errorf("Dir %q, Files %v: want paths under %s", out.Dir, out.Files, dir)
	}
	mem, err := executeMemory(exp, Options{Seed: &seed})
	if err != nil {
		t.Fatal(err)
	}
	runtest.SameFiles(t, dir, mem, 1, runtest.SVGCount(t, dir))
}

// TestMemoryObserve: Observe hears the stages in order, each figure once,
// the same figure the Memory sink keeps, as soon as it is drawn (before
// the next one).
func TestMemoryObserve(t *testing.T) {
	exp, err := experiment.Load("../../experiments/mm10.toml")
	if err != nil {
		t.Fatal(err)
	}
	var stages []string
	var seen []output.MemoryFigure
	mem, err := executeMemory(exp, Options{Observe: func(stage string, fig *output.MemoryFigure) {
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
			t.Errorf("figure %d (%s): observed differently from the one kept", i, f.File)
		}
	}
}

// TestFolderAbortKeepsPrevious: a run that fails after its Folder was
// staged, and a Folder aborted by hand, leave the previous set as it was.
func TestFolderAbortKeepsPrevious(t *testing.T) {
	exp, err := experiment.Load("../../experiments/mm10.toml")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "out")
	if _, err := Execute(exp, Options{}, output.NewFolder(dir, false)); err != nil {
		t.Fatal(err)
	}
	before := readDir(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Execute(exp, Options{Context: ctx}, output.NewFolder(dir, false)); err == nil {
		t.Fatal("a cancelled run succeeded")
	}
	f := output.NewFolder(dir, false)
	if err := f.Open("unused"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.File(SummaryFile, func(w io.Writer) error { _, err := io.WriteString(w, "{}"); return err }); err != nil {
		t.Fatal(err)
	}
	f.Abort()
	after := readDir(t, dir)
	if len(after) != len(before) {
		t.Fatalf("files %d after the failed run, want %d", len(after), len(before))
	}
	for name, b := range before {
		if !bytes.Equal(after[name], b) {
			t.Errorf("%s changed", name)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), ".*")); len(m) > 0 {
		t.Errorf("staging left behind: %v", m)
	}
}

// readDir is every file of dir by name.
func readDir(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = b
	}
	return files
}

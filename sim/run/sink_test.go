package run

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/run/runner"
)

// executeMemory runs exp into a Memory sink and returns the sink.
func executeMemory(exp *experiment.Experiment, opt Options) (*output.Memory, error) {
	mem := &output.Memory{}
	_, err := Execute(exp, opt, mem)
	return mem, err
}

// sameFiles checks that every in-memory file and SVG figure has the bytes
// of the file of that name in dir, and that there are figures.
func sameFiles(t *testing.T, dir string, mem *output.Memory, wantFiles, wantFigs int) {
	t.Helper()
	if len(mem.Files) != wantFiles {
		t.Errorf("%d data files, want %d", len(mem.Files), wantFiles)
	}
	for _, f := range mem.Files {
		want, err := os.ReadFile(filepath.Join(dir, f.File))
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Data) == 0 || !bytes.Equal(f.Data, want) {
			t.Errorf("%s differs from the file written", f.File)
		}
	}
	if len(mem.Figures) != wantFigs {
		t.Errorf("%d figures, want %d", len(mem.Figures), wantFigs)
	}
	for _, f := range mem.Figures {
		want, err := os.ReadFile(filepath.Join(dir, f.File))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(f.SVG, want) {
			t.Errorf("%s differs from the file written", f.File)
		}
	}
}

// svgCount is the number of SVG files in dir.
func svgCount(t *testing.T, dir string) int {
	t.Helper()
	figs, err := filepath.Glob(filepath.Join(dir, "*.svg"))
	if err != nil {
		t.Fatal(err)
	}
	return len(figs)
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
	sameFiles(t, dir, mem, 1, svgCount(t, dir))
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

// TestSinksSameCompare: a comparison into the Memory sink gives
// compare.json, .csv, .md and every SVG figure byte for byte as the
// Folder sink writes them.
func TestSinksSameCompare(t *testing.T) {
	exp := loadVariants(t)
	seed := uint64(11)
	opt := CompareOptions{Seed: &seed, Replications: 2, Jobs: 2}
	mem := &output.Memory{}
	if _, err := Compare(context.Background(), exp, opt, mem); err != nil {
		t.Fatal(err)
	}
	disk := opt
	dir := t.TempDir()
	disk.Plots, disk.Series = true, experiment.SeriesNone
	if _, err := Compare(context.Background(), exp, disk, output.NewFolder(dir, true)); err != nil {
		t.Fatal(err)
	}
	// The timeline, one overview per variant, a bar chart per metric with
	// a value, and the locked-in bars when there is a fault.
	sameFiles(t, dir, mem, 3, svgCount(t, dir))
}

// TestSinksSameSweep: the same for a sweep.
func TestSinksSameSweep(t *testing.T) {
	exp, err := experiment.Parse("sw.toml", []byte(sweepFile))
	if err != nil {
		t.Fatal(err)
	}
	mem := &output.Memory{}
	if _, err := RunSweep(context.Background(), exp, CompareOptions{Jobs: 2}, mem); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := RunSweep(context.Background(), exp, CompareOptions{Plots: true}, output.NewFolder(dir, true)); err != nil {
		t.Fatal(err)
	}
	// Two variants over two axes: a phase diagram each.
	sameFiles(t, dir, mem, 3, 2)
}

// TestMemoryBudget: a comparison or sweep over the budget is refused
// before any run, with runner.ErrBudget.
func TestMemoryBudget(t *testing.T) {
	exp, err := experiment.Parse("sw.toml", []byte(sweepFile))
	if err != nil {
		t.Fatal(err)
	}
	tiny := CompareOptions{Budget: runner.Budget{MaxEvents: 1000}}
	if _, err := RunSweep(context.Background(), exp, tiny, &output.Memory{}); !errors.Is(err, runner.ErrBudget) {
		t.Errorf("sweep: err = %v, want runner.ErrBudget", err)
	}
	if _, err := Compare(context.Background(), exp, tiny, &output.Memory{}); !errors.Is(err, runner.ErrBudget) {
		t.Errorf("compare: err = %v, want runner.ErrBudget", err)
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

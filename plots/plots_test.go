package plots

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/compare"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/run/sweep"
)

var update = flag.Bool("update", false, "rewrite the committed figures from the experiments")

// figure is a committed file and where it comes from: the command kind
// (run, compare, sweep), the experiment, and the file in its outputs.
type figure struct {
	file, kind, experiment, output string
}

// committed lists every figure in this folder; the single-run overviews
// are added from the experiments folder.
func committed(t *testing.T) []figure {
	figs := []figure{
		{"abandonment-timeline.png", "run", "abandonment", "timeline-api.png"},
		{"metastable-retry-storm-compare.png", "compare", "metastable-retry-storm", "compare-timeline.png"},
		{"metastable-retry-storm-goodput.png", "compare", "metastable-retry-storm", "bars-goodput.png"},
		{"metastable-retry-storm-compare.md", "compare", "metastable-retry-storm", "compare.md"},
		{"brooker-spike-compare.png", "compare", "brooker-spike", "compare-timeline.png"},
		{"brooker-spike-compare.md", "compare", "brooker-spike", "compare.md"},
		{"metastable-phase.png", "sweep", "metastable-phase", "phase-base.png"},
		{"metastable-phase.md", "sweep", "metastable-phase", "sweep.md"},
		{"goodput-vs-load.png", "sweep", "goodput-vs-load", "sweep-goodput.png"},
	}
	files, err := filepath.Glob("../experiments/*.toml")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".toml")
		switch name {
		case "mm10", "metastable-phase", "goodput-vs-load":
			continue // no fault to show, or a sweep
		}
		if strings.HasPrefix(name, "gameday-") {
			continue // a game day's run plays its reference answer, which the page keeps from the players
		}
		figs = append(figs, figure{name + ".png", "run", name, "overview.png"})
	}
	return figs
}

// TestPlotsAreCurrent regenerates every committed figure and compares the
// bytes: a change to the model, the figures or an experiment that moves a
// committed figure fails here until `go test ./plots -update` is run and
// the new figures are looked at.
func TestPlotsAreCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("regenerates every committed figure")
	}
	dirs := map[string]string{} // kind/experiment -> output folder
	for _, f := range committed(t) {
		key := f.kind + "/" + f.experiment
		dir, ok := dirs[key]
		if !ok {
			dir = generate(t, f.kind, f.experiment)
			dirs[key] = dir
		}
		got, err := os.ReadFile(filepath.Join(dir, f.output))
		if err != nil {
			t.Fatal(err)
		}
		if *update {
			if err := os.WriteFile(f.file, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(f.file)
		if err != nil {
			t.Errorf("%s: %v (run go test ./plots -update)", f.file, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is out of date: %s of experiments/%s.toml draws it differently; run go test ./plots -update and look at it",
				f.file, f.kind, f.experiment)
		}
	}
}

// generate runs one command of an experiment into a temporary folder.
func generate(t *testing.T, kind, name string) string {
	t.Helper()
	exp, err := experiment.Load(filepath.Join("..", "experiments", name+".toml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), kind)
	ctx := context.Background()
	opt := run.CompareOptions{OutDir: dir, Plots: true, Jobs: 2}
	switch kind {
	case "run":
		_, err = run.Execute(exp, run.Options{Plots: true}, output.NewFolder(dir, false))
	case "compare":
		_, err = compare.Run(ctx, exp, opt, output.NewFolder(opt.OutDir, opt.SVG))
	case "sweep":
		_, err = sweep.Run(ctx, exp, opt, output.NewFolder(opt.OutDir, opt.SVG))
	}
	if err != nil {
		t.Fatalf("%s %s: %v", kind, name, err)
	}
	return dir
}

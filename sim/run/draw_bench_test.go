package run

import (
	"path/filepath"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run/figures"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/run/runner"
)

// BenchmarkDrawFigures is what `ressim run experiments/mm10.toml` spends
// on its figures (the run with figures minus the run without, issue
// 31): compose the default figures of a run done once, outside the
// timer, and draw them as PNG into a fresh staged folder in b.TempDir(),
// as Output.write does. "sequential" draws them one after another
// (DrawFigures), "parallel" as the run does (DrawFiguresParallel).
func BenchmarkDrawFigures(b *testing.B) {
	exp, err := experiment.Load(filepath.Join("..", "..", "experiments", "mm10.toml"))
	if err != nil {
		b.Fatal(err)
	}
	out, err := Execute(exp, Options{Budget: runner.DefaultBudget}, output.NewFolder(b.TempDir(), false))
	if err != nil {
		b.Fatal(err)
	}
	draws := map[string]func(output.Sink, []output.Figure) ([]string, []string){
		"sequential": output.DrawFigures, "parallel": output.DrawFiguresParallel,
	}
	for _, name := range []string{"sequential", "parallel"} {
		b.Run(name, func(b *testing.B) {
			dir := b.TempDir()
			b.ReportAllocs()
			for b.Loop() {
				drawDefault(b, out, dir, draws[name])
			}
		})
	}
}

// drawDefault draws out's default figures into a new Folder on dir with
// draw, failing b on a warning.
func drawDefault(b *testing.B, out *Output, dir string, draw func(output.Sink, []output.Figure) ([]string, []string)) {
	sink := output.NewFolder(dir, false)
	if err := sink.Open(dir); err != nil {
		b.Fatal(err)
	}
	defer sink.Abort()
	var figs []output.Figure
	for _, f := range figures.Default(out.Result) {
		figs = append(figs, output.Growing(f.File, f.Figure))
	}
	if _, warn := draw(sink, figs); len(warn) > 0 {
		b.Fatal(warn)
	}
	if err := sink.Commit(); err != nil {
		b.Fatal(err)
	}
}

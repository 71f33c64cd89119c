package run

import (
	"path/filepath"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/run/runner"
)

// BenchmarkExecute is one whole `ressim run --no-plots` of a bundled
// experiment: read, model, simulate, summarise and write the data files.
// It is what a user waits for, and the figure docs/performance.md records
// against the previous release to show no bundled experiment got slower.
// deadline-propagation keeps the queued requests' deadline events in view
// (a lane since the fifth session), retry-budget the cost of writing a
// small run's files.
func BenchmarkExecute(b *testing.B) {
	for _, name := range []string{"mm10", "retry-amplification", "breaker-fallback", "deadline-propagation", "retry-budget", "metastable-retry-storm"} {
		b.Run(name, func(b *testing.B) {
			exp, err := experiment.Load(filepath.Join("..", "..", "experiments", name+".toml"))
			if err != nil {
				b.Fatal(err)
			}
			dir := b.TempDir()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Execute(exp, Options{Budget: runner.DefaultBudget}, output.NewFolder(dir, false)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkExecutePhases splits BenchmarkExecute/mm10 in two: simulate
// (the model built and run, as Execute does into a Folder) and write (its
// three data files into a Folder, staged and committed). Natively writing
// is 3 % of the run; compiled to WebAssembly it was 10-12x slower than
// native where the simulation was 3.3-3.4x (docs/performance.md, sixth
// pass), so the two ratios are worth telling apart.
func BenchmarkExecutePhases(b *testing.B) {
	exp, err := experiment.Load(filepath.Join("..", "..", "experiments", "mm10.toml"))
	if err != nil {
		b.Fatal(err)
	}
	opt := Options{Budget: runner.DefaultBudget}
	cfg, err := model(exp, opt)
	if err != nil {
		b.Fatal(err)
	}
	out := &Output{}
	b.Run("simulate", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if out.Result, err = simulate(cfg, opt); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("write", func(b *testing.B) {
		if out.Result == nil { // simulate was filtered out
			if out.Result, err = simulate(cfg, opt); err != nil {
				b.Fatal(err)
			}
		}
		dir := b.TempDir()
		b.ReportAllocs()
		for b.Loop() {
			f := output.NewFolder(dir, false)
			if err := f.Open("mm10"); err != nil {
				b.Fatal(err)
			}
			if err := out.write(f, opt); err != nil {
				b.Fatal(err)
			}
			if err := f.Commit(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

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

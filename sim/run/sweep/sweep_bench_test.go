package sweep

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/runner"
)

// BenchmarkPhaseSweep runs the bundled phase diagram's runs (54 cells,
// one replication each; no outputs) with -j 1 and -j 2, for profiles of
// what bounds the parallel speed-up (docs/performance.md).
func BenchmarkPhaseSweep(b *testing.B) {
	data, err := os.ReadFile("../../../experiments/metastable-phase.toml")
	if err != nil {
		b.Fatal(err)
	}
	exp, err := experiment.Parse("metastable-phase.toml", data)
	if err != nil {
		b.Fatal(err)
	}
	for _, j := range []int{1, 2} {
		b.Run(fmt.Sprintf("j%d", j), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				res, cells, err := newSweep(exp, run.CompareOptions{Replications: 1})
				if err != nil {
					b.Fatal(err)
				}
				if res.spool, err = newCellSpool(b.TempDir()); err != nil {
					b.Fatal(err)
				}
				if err := res.runCells(context.Background(), cells, run.CompareOptions{Jobs: j}, runner.NewMeter(context.Background(), runner.Budget{})); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

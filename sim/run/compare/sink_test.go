package compare

import (
	"context"
	"errors"
	"testing"

	"github.com/ressim/ressim/internal/runtest"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/run/runner"
)

// TestSinksSameCompare: a comparison into the Memory sink gives
// compare.json, .csv, .md and every SVG figure byte for byte as the
// Folder sink writes them.
func TestSinksSameCompare(t *testing.T) {
	exp := loadVariants(t)
	seed := uint64(11)
	opt := run.CompareOptions{Seed: &seed, Replications: 2, Jobs: 2}
	mem := &output.Memory{}
	if _, err := Run(context.Background(), exp, opt, mem); err != nil {
		t.Fatal(err)
	}
	disk := opt
	dir := t.TempDir()
	disk.Plots, disk.Series = true, experiment.SeriesNone
	if _, err := Run(context.Background(), exp, disk, output.NewFolder(dir, true)); err != nil {
		t.Fatal(err)
	}
	// The timeline, one overview per variant, a bar chart per metric with
	// a value, and the locked-in bars when there is a fault.
	runtest.SameFiles(t, dir, mem, 3, runtest.SVGCount(t, dir))
}

// TestMemoryBudget: a comparison over the budget is refused before any
// run, with runner.ErrBudget.
func TestMemoryBudget(t *testing.T) {
	tiny := run.CompareOptions{Replications: 1000, Budget: runner.Budget{MaxEvents: 1000}}
	if _, err := Run(context.Background(), loadVariants(t), tiny, &output.Memory{}); !errors.Is(err, runner.ErrBudget) {
		t.Errorf("compare: err = %v, want runner.ErrBudget", err)
	}
}

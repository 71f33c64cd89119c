package sweep

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

// TestSinksSameSweep: the same for a sweep.
func TestSinksSameSweep(t *testing.T) {
	exp, err := experiment.Parse("sw.toml", []byte(runtest.SweepFile))
	if err != nil {
		t.Fatal(err)
	}
	mem := &output.Memory{}
	if _, err := Run(context.Background(), exp, run.CompareOptions{Jobs: 2}, mem); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := Run(context.Background(), exp, run.CompareOptions{Plots: true}, output.NewFolder(dir, true)); err != nil {
		t.Fatal(err)
	}
	// Two variants over two axes: a phase diagram each.
	runtest.SameFiles(t, dir, mem, 3, 2)
}

// TestMemoryBudget: a sweep over the budget is refused before any run,
// with runner.ErrBudget.
func TestMemoryBudget(t *testing.T) {
	exp, err := experiment.Parse("sw.toml", []byte(runtest.SweepFile))
	if err != nil {
		t.Fatal(err)
	}
	tiny := run.CompareOptions{Budget: runner.Budget{MaxEvents: 1000}}
	if _, err := Run(context.Background(), exp, tiny, &output.Memory{}); !errors.Is(err, runner.ErrBudget) {
		t.Errorf("sweep: err = %v, want runner.ErrBudget", err)
	}
}

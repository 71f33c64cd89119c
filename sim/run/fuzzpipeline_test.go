package run_test

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/compare"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/run/runner"
	"github.com/ressim/ressim/sim/run/sweep"
)

// tinyBudget keeps a fuzz iteration short whatever the file asks for.
var tinyBudget = runner.Budget{MaxEvents: 1e6, MaxMemory: 2 << 30, Timeout: 2 * time.Second}

// FuzzPipeline drives the whole pipeline on any input: parse and
// validate, then run (and compare, and sweep, when the file has variants
// or a sweep) under a tiny budget, writing every output into a temporary
// folder. Nothing may panic; an accepted file may only be refused or
// stopped by the budget, never fail; a figure that cannot be drawn is a
// warning. The seeds are the bundled experiments and the run tests' files.
func FuzzPipeline(f *testing.F) {
	for _, p := range []string{"testdata/small.toml", "testdata/variants.toml",
		"../../experiments/metastable-phase.toml", "../../experiments/readiness-trap.toml", "../../experiments/goodput-vs-load.toml"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		exp, err := experiment.Parse("fuzz.toml", data)
		if err != nil {
			if !errors.Is(err, experiment.ErrInvalid) {
				t.Fatalf("error is not ErrInvalid: %v", err)
			}
			return
		}
		plots := len(data)%2 == 1 // half the inputs draw their figures
		_, err = run.Execute(exp, run.Options{Plots: plots, TraceEvery: 7, Budget: tinyBudget}, output.NewFolder(t.TempDir(), false))
		allowed(t, "run", err)
		opt := run.CompareOptions{OutDir: t.TempDir(), Jobs: 1, Replications: 2, Plots: plots, Budget: tinyBudget}
		if len(exp.Variants) > 0 {
			_, err = compare.Run(context.Background(), exp, opt, output.NewFolder(opt.OutDir, opt.SVG))
			allowed(t, "compare", err)
		}
		if exp.Sweep != nil {
			opt.OutDir, opt.Replications = t.TempDir(), 1
			_, err = sweep.Run(context.Background(), exp, opt, output.NewFolder(opt.OutDir, opt.SVG))
			allowed(t, "sweep", err)
		}
	})
}

// allowed fails the test unless err is nil or a budget's.
func allowed(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil && !errors.Is(err, runner.ErrBudget) {
		t.Fatalf("%s of an accepted file failed: %v", what, err)
	}
}

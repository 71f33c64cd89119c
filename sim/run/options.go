package run

import (
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run/runner"
	"github.com/ressim/ressim/sim/topology"
)

// CompareOptions control a comparison.
type CompareOptions struct {
	// OutDir is a Batch's output directory (Stage); empty means
	// out/<name>/sweep or compare. Compare and RunSweep write their sink.
	OutDir string
	// Jobs is the number of runs executed in parallel; 0 means
	// runtime.NumCPU(). The results do not depend on it.
	Jobs int
	// Seed, if non-nil, overrides the experiment's seed.
	Seed *uint64
	// Replications, if > 0, overrides the experiment's replications.
	Replications int
	// Plots draws the figures; SVG has a Batch write each as SVG too.
	Plots, SVG bool
	// Series says which runs' time series Compare writes to
	// timeseries.csv: experiment.SeriesAll, SeriesFirst (replication 0 of
	// each variant) or SeriesNone (no file). Empty means the experiment's
	// compare_series, else DefaultSeries. Sweeps ignore it.
	Series string
	// Progress, if not nil, is called after each finished run with the
	// number done and the total. It is called from one goroutine at a time.
	Progress func(done, total int)
	// Budget bounds the whole comparison (every run together); the zero
	// Budget is unbounded.
	Budget runner.Budget
	// KeepRuns keeps every run's whole result in Comparison.Runs (tests
	// and tools that inspect each run); memory then grows with
	// replications x series length.
	KeepRuns bool
}

// Arm is one variant of a comparison: the base experiment or a
// [[variant]].
type Arm struct {
	Name, Description string
	Model             topology.Config
}

// Arms returns the base experiment followed by its variants.
func Arms(exp *experiment.Experiment) []Arm {
	arms := []Arm{{Name: "base", Description: exp.Description, Model: exp.Model}}
	for _, v := range exp.Variants {
		arms = append(arms, Arm{Name: v.Name, Description: v.Description, Model: v.Model})
	}
	return arms
}

func (opt CompareOptions) SeedAndReps(exp *experiment.Experiment) (seed uint64, reps int) {
	seed = exp.Model.Seed
	if opt.Seed != nil {
		seed = *opt.Seed
	}
	reps = exp.Replications
	if opt.Replications > 0 {
		reps = opt.Replications
	}
	return seed, max(reps, 1)
}

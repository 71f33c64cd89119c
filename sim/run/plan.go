package run

import (
	"fmt"
	"strings"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run/runner"
)

// CostReport describes what exp costs: one run of the base model, and the
// totals of compare and sweep (with the file's replications), as ressim
// validate prints it, one fact a line.
func CostReport(exp *experiment.Experiment) string {
	var b strings.Builder
	b.WriteString(runner.Estimate(exp.Model).String())
	reps := max(exp.Replications, 1)
	if len(exp.Variants) > 0 || reps > 1 {
		c := &Comparison{Replications: reps, Arms: Arms(exp)}
		fmt.Fprintf(&b, "\ncompare: %d run(s), %s events in all", len(c.Arms)*reps, runner.FormatCount(totalEvents(c.plan())))
	}
	if exp.Sweep != nil {
		if plan, err := sweepPlan(exp, reps); err == nil {
			fmt.Fprintf(&b, "\nsweep: %d run(s), %s events in all", runner.Runs(plan), runner.FormatCount(totalEvents(plan)))
		}
	}
	d := runner.DefaultBudget
	fmt.Fprintf(&b, "\ndefault budget: %s events, %s of memory, %v of wall time, %s of data files (--max-events, --max-memory, --timeout, --max-output)",
		runner.FormatCount(d.MaxEvents), runner.FormatBytes(float64(d.MaxMemory)), d.Timeout, runner.FormatBytes(d.MaxOutput))
	return b.String()
}

func totalEvents(plan []runner.PlannedRun) float64 {
	var t float64
	for _, r := range plan {
		t += runner.Estimate(r.Model).Events * float64(r.Times)
	}
	return t
}

// sweepPlan is every cell model of exp's sweep with its replications.
func sweepPlan(exp *experiment.Experiment, reps int) ([]runner.PlannedRun, error) {
	sw := exp.Sweep
	variants := sw.Variants
	if len(variants) == 0 {
		variants = []string{"base"}
	}
	ny := 1
	if sw.Y != nil {
		ny = len(sw.Y.Values)
	}
	cells, err := sweepCells(exp, variants, len(sw.X.Values), ny)
	if err != nil {
		return nil, err
	}
	plan := make([]runner.PlannedRun, len(cells))
	for i, c := range cells {
		plan[i] = runner.PlannedRun{Model: c.cfg, Times: reps}
	}
	return plan, nil
}

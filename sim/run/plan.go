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
		plan := comparePlan(exp, reps)
		fmt.Fprintf(&b, "\ncompare: %d run(s), %s events in all", runner.Runs(plan), runner.FormatCount(totalEvents(plan)))
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

// comparePlan is every variant's model with its replications.
func comparePlan(exp *experiment.Experiment, reps int) []runner.PlannedRun {
	var plan []runner.PlannedRun
	for _, a := range Arms(exp) {
		plan = append(plan, runner.PlannedRun{Model: a.Model, Times: reps})
	}
	return plan
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
	var plan []runner.PlannedRun
	for _, v := range variants {
		for y := range ny {
			for x := range sw.X.Values {
				cfg, err := CellModel(exp, v, x, y)
				if err != nil {
					return nil, err
				}
				plan = append(plan, runner.PlannedRun{Model: cfg, Times: reps})
			}
		}
	}
	return plan, nil
}

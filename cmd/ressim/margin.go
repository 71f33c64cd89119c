package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/ressim/ressim/sim/run/margin"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/run/runner"
)

func newMarginCmd() *cobra.Command {
	var (
		f            batchFlags
		fault, by    string
		target       float64
		points       int
		estimateOnly bool
	)
	c := &cobra.Command{
		Use:   "margin FILE [--fault LABEL] [--by duration|size|load] [--target P]",
		Short: "Find the smallest trigger that locks the system in, with a 95 % interval",
		Long: `Margin answers "how big a trigger can this system take?": the smallest
trigger at which the probability of ending locked in (the judged fault's
verdict locked_in or relapsed, as ressim run prints it) reaches --target
(default 0.5), with a 95 % interval.

--fault names the judged fault by its label, as an [[expect]] block's fault
key does (its label, or the generated one reports show, such as
"api slow x5"); a file with one fault needs none. --by says what varies:

  duration   the fault's duration (the default)
  size       a latency or load fault's multiply, an error fault's rate
  load       the offered load: every open-loop client's rate, scaled
             together (schedules too), under the file's fault; the
             threshold is the sum of the constant rates

It runs --replications runs (default 8) at each of at most --points trigger
values (default 12): a scan of 5 points from 1/256 of the file's duration
(1/16 of its multiply's excess over 1, 1/64 of its rate, 1/4 of its load) up
to the file's value; further points beyond that range while it does not
bracket the target; then points placed by a logistic dose-response curve
fitted by maximum likelihood (on the logarithm of a duration or a size), at
its threshold and one logit unit either side. The interval is the profile
likelihood's. Runs use compare's replication seeds (the k-th run of the search
is replication k), in parallel (-j); the results do not depend on -j.

It writes margin.json (the threshold as threshold_duration_s, threshold_size
or threshold_load_rps; ci95_lo, ci95_hi, target, and every point tried with
its runs, locked_in and seeds) and margin.png (P(locked in) against the
trigger: the points with their Wilson intervals, the fitted curve and its
band, the threshold and its interval), all or nothing. See docs/edge.md.

The budget flags bound the whole search; it is refused before any run when
its plan (points x replications runs of the model at the largest trigger it
may try) is over them. --estimate prints the plan and its cost and exits.`,
		Example: `  ressim margin experiments/metastable-retry-storm.toml
  ressim margin experiments/metastable-retry-storm.toml --by size --target 0.9 -o out/margin-size`,
		Args:              exactArgs(1),
		ValidArgsFunction: tomlFiles,
		RunE: func(c *cobra.Command, args []string) error {
			exp, err := load(args[0])
			if err != nil {
				return err
			}
			if points < 2 || points > margin.MaxPoints {
				return usageError{fmt.Errorf("--points must be in [2, %d], got %d", margin.MaxPoints, points)}
			}
			if !(target > 0 && target < 1) {
				return usageError{fmt.Errorf("--target must be a probability strictly between 0 and 1, got %v", target)}
			}
			if c.Flags().Changed("replications") && f.reps > margin.MaxReplications {
				return usageError{fmt.Errorf("--replications must be in [1, %d], got %d", margin.MaxReplications, f.reps)}
			}
			copt, ctx, stop, err := f.options(c)
			if err != nil {
				return err
			}
			defer stop()
			reps := margin.DefaultReplications
			if f.reps > 0 {
				reps = f.reps
			}
			t, err := margin.NewTrigger(exp.Model, fault, by)
			if err != nil {
				return usageError{err}
			}
			plan := margin.Plan(t, points, reps)
			w := c.OutOrStdout()
			fmt.Fprintf(w, "%s: %s of %q, at most %d points x %d replications = %d runs, %s events at most (estimate)\n",
				exp.Name, t.By, t.Label, points, reps, runner.Runs(plan), runner.FormatCount(runner.TotalEvents(plan)))
			if estimateOnly {
				return copt.Budget.Check(plan)
			}
			opt := margin.Options{Fault: fault, By: by, Target: target, Points: points, Replications: reps, Seed: copt.Seed,
				Jobs: copt.Jobs, Plots: copt.Plots, SVG: copt.SVG, Budget: copt.Budget, Progress: copt.Progress}
			out, err := margin.Run(ctx, exp, opt, output.NewFolder(copt.OutDir, copt.SVG))
			if err != nil {
				if errors.Is(err, margin.ErrSetup) {
					return usageError{err}
				}
				return stopped(err, 0, "point")
			}
			warn(c.ErrOrStderr(), out.Warnings)
			r := out.Result
			for _, p := range r.Points {
				fmt.Fprintf(w, "  %-12s %d/%d locked in\n", r.Trigger.Format(p.Trigger), p.LockedIn, p.Runs)
			}
			fmt.Fprintf(w, "%s\noutputs in %s/\n", r.Summary(), out.Dir)
			return nil
		},
	}
	f.register(c, "out/<experiment name>/margin")
	c.Flags().StringVar(&fault, "fault", "", "the judged fault's label, as [[expect]] fault names it (default: the file's only fault)")
	c.Flags().StringVar(&by, "by", margin.ByDuration, "what varies: duration, size (multiply or rate) or load (the open-loop clients' rates)")
	c.Flags().Float64Var(&target, "target", margin.DefaultTarget, "the P(locked in) the threshold is defined by")
	c.Flags().IntVar(&points, "points", margin.DefaultPoints, "the most trigger values tried")
	c.Flags().BoolVar(&estimateOnly, "estimate", false, "print the plan and its estimated cost, check it against the budget, and exit")
	c.Flags().Lookup("replications").Usage = fmt.Sprintf("runs at each trigger value (default %d)", margin.DefaultReplications)
	return c
}

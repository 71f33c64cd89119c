package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/run/rare"
	"github.com/ressim/ressim/sim/run/runner"
)

func newRareCmd() *cobra.Command {
	var (
		f            batchFlags
		method       string
		within       time.Duration
		runs         int
		repeats      int
		withFault    bool
		estimateOnly bool
		level        int64
		successes    int
	)
	c := &cobra.Command{
		Use:   "rare FILE [--within DURATION] [--method splitting|ams|fixed-success|naive] [--runs N] [--level N]",
		Short: "Estimate the probability of locking in with no fault, with a 95 % interval",
		Long: `Rare estimates the probability that the system enters its locked-in state
within --within (default: the file's duration, warm-up included) with no
fault at all: the file's faults are removed (--with-fault keeps them).

Locked in, without a fault to judge, means: every interval for the file's
recovery window (default 5 s) in a row after the warm-up answers fewer than
half of the user requests sent in it in full and in time (a deficit held for
a window). See docs/model.md.

--method naive runs --runs plain replications (default 200) and gives a
Wilson interval. --method splitting (the default) is fixed-effort multilevel
splitting on the backlog (attempts busy or queued in the services at an
interval's end): --runs trajectories a stage; each level is the backlog
about 20 % of the stage's runs reach; the next
stage restarts from their crossings by replay (the trajectory's seed is
re-run to the crossing and its random streams branched there); the last
stage (once 20 % of a stage's runs lock in) asks for the lock-in itself. The estimate is the product of the
stages' conditional probabilities; --repeats (default 10) independent
estimates are averaged, and the interval is Student's t on their mean.

--method ams is adaptive multilevel splitting (Cérou and Guyader; with
ties, Bréhier et al.): --runs particles, scored by their largest backlog
plus user requests in flight; each iteration kills the 2 % scoring
lowest (all tied with them) and restarts each from a survivor's first
crossing. --method fixed-success splits at every backlog 1..--level and
runs each stage until --successes runs (default 20) reached it.

--level N defines the locked-in state as a backlog (attempts busy or
queued in the services) of at least N at an interval's end, instead of the
deficit held for a window: the event ressim ctmc --level N computes from
its chain.

It writes rare.json (probability, ci95_lo, ci95_hi, method, events, levels,
per_year), all or nothing. See docs/edge.md.

The budget flags bound the whole estimate; it is refused before any run
when its plan is over them. --estimate prints the plan and exits.`,
		Example: `  ressim rare experiments/metastable-retry-storm.toml --within 2m
  ressim rare experiments/metastable-retry-storm.toml --method naive --runs 1000`,
		Args:              exactArgs(1),
		ValidArgsFunction: tomlFiles,
		RunE: func(c *cobra.Command, args []string) error {
			exp, err := load(args[0])
			if err != nil {
				return err
			}
			if !c.Flags().Changed("runs") && method == rare.Splitting {
				runs = rare.DefaultStageRuns
			}
			if !c.Flags().Changed("runs") && method == rare.AMS {
				runs = rare.DefaultStageRuns
			}
			opt := rare.Options{Method: method, Within: within, Runs: runs, Repeats: repeats, WithFault: withFault, Level: level, Successes: successes}
			if err := rare.Check(exp.Model, opt); err != nil {
				return usageError{err}
			}
			copt, ctx, stop, err := f.options(c)
			if err != nil {
				return err
			}
			defer stop()
			opt.Seed, opt.Jobs, opt.Budget, opt.Plots = copt.Seed, copt.Jobs, copt.Budget, copt.Plots
			plan := rare.Plan(exp.Model, opt)
			w := c.OutOrStdout()
			fmt.Fprintf(w, "%s: %s, %d runs at most, %s events at most (estimate)\n",
				exp.Name, method, runner.Runs(plan), runner.FormatCount(runner.TotalEvents(plan)))
			if estimateOnly {
				return copt.Budget.Check(plan)
			}
			out, err := rare.Run(ctx, exp, opt, output.NewFolder(copt.OutDir, copt.SVG))
			if err != nil {
				if errors.Is(err, rare.ErrSetup) {
					return usageError{err}
				}
				return stopped(err, 0, "run")
			}
			r := out.Result
			stage := 0
			for i, s := range r.Stages {
				if i > 0 && s.Repeat != r.Stages[i-1].Repeat {
					stage = 0
				}
				stage++
				if s.LockIn {
					fmt.Fprintf(w, "  repeat %d stage %d: from backlog %d, %d/%d locked in (%.3g)\n", s.Repeat+1, stage, s.Level, s.Reached, s.Runs, s.Conditional)
				} else {
					fmt.Fprintf(w, "  repeat %d stage %d: backlog %d, %d/%d reached (%.3g)\n", s.Repeat+1, stage, s.Level, s.Reached, s.Runs, s.Conditional)
				}
			}
			fmt.Fprintf(w, "%s\noutputs in %s/\n", r.Summary(), out.Dir)
			return nil
		},
	}
	f.register(c, "out/<experiment name>/rare")
	c.Flags().StringVar(&method, "method", rare.Splitting, "splitting, ams, fixed-success or naive")
	c.Flags().Int64Var(&level, "level", 0, "locked in means a backlog of at least N at an interval's end (default: a deficit held for the recovery window)")
	c.Flags().IntVar(&successes, "successes", 0, fmt.Sprintf("fixed-success: the crossings each stage waits for (default %d)", rare.DefaultSuccesses))
	c.Flags().DurationVar(&within, "within", 0, "the simulated time of each trajectory (default: the file's duration)")
	c.Flags().IntVar(&runs, "runs", rare.DefaultRuns, fmt.Sprintf("naive replications, or splitting runs per stage (default %d)", rare.DefaultStageRuns))
	c.Flags().IntVar(&repeats, "repeats", rare.DefaultRepeats, "independent splitting estimates averaged; their spread gives the interval")
	c.Flags().BoolVar(&withFault, "with-fault", false, "keep the file's faults")
	c.Flags().BoolVar(&estimateOnly, "estimate", false, "print the plan and its estimated cost, check it against the budget, and exit")
	return c
}

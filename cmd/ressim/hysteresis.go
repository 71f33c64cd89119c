package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/spf13/cobra"

	"github.com/ressim/ressim/sim/run/hysteresis"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/run/runner"
)

func newHysteresisCmd() *cobra.Command {
	var (
		outDir, client string
		from, to       float64
		ramp, hold     time.Duration
		threshold      float64
		bins           int
		seed           uint64
		noPlots, svg   bool
		estimateOnly   bool
		budget         budgetFlags
	)
	c := &cobra.Command{
		Use:   "hysteresis FILE [--from R --to R --ramp DURATION --hold DURATION]",
		Short: "Ramp the offered load up then down and find the band where two states are stable",
		Long: `Hysteresis draws goodput against offered load with the load ramped up and
then down again, and finds the bistable band: the loads at which the system
is healthy on the way up but stays down on the way back.

It takes one open-loop client with a constant rate (--client; default the
file's first) and replaces its rate with a linear schedule: --from for
--hold, up to --to over --ramp, --to for --hold, back down to --from over
--ramp, --from for --hold (defaults: 1/10 of the file's rate, twice it,
10m, 1m). The file's faults, actions and trace sampling are left out: the
ramp is the only trigger. It runs once, with the file's seed (or --seed).

Each interval of the run is a point: the scheduled offered load (its mean
over the interval), the client's goodput, and its target's backlog. The
band's test splits [--from, --to] into --bins equal windows (default 50);
a window is bistable when the up and the down ramp both pass through it
and their mean goodputs differ by more than --threshold (default 0.2)
times the window's middle load. The band is the widest run of adjacent
bistable windows.

It writes hysteresis.json (the ramp, the band's lo_rps and hi_rps, also as
shares of the client's capacity, every window, every interval's point with
its branch: up, top or down) and hysteresis.png (goodput, and the
target's backlog, against offered load: the two branches in two colours,
the band shaded, the capacities marked), all or nothing. See docs/edge.md.

The budget flags bound the run; it is refused before it starts when its
estimate is over them. --estimate prints the estimate and exits.`,
		Example: `  ressim hysteresis experiments/metastable-retry-storm.toml
  ressim hysteresis experiments/metastable-retry-storm.toml --from 100 --to 1400 --ramp 20m -o out/slow-ramp`,
		Args:              exactArgs(1),
		ValidArgsFunction: tomlFiles,
		RunE: func(c *cobra.Command, args []string) error {
			exp, err := load(args[0])
			if err != nil {
				return err
			}
			fl := c.Flags()
			switch {
			case fl.Changed("seed") && seed > maxSeed:
				return usageError{fmt.Errorf("--seed must be in [0, 2^62], got %d", seed)}
			case !(threshold > 0 && threshold < 1):
				return usageError{fmt.Errorf("--threshold must be a share strictly between 0 and 1, got %v", threshold)}
			case bins < 1 || bins > hysteresis.MaxBins:
				return usageError{fmt.Errorf("--bins must be in [1, %d], got %d", hysteresis.MaxBins, bins)}
			case ramp <= 0:
				return usageError{fmt.Errorf("--ramp must be a duration above 0, got %v", ramp)}
			case hold < 0:
				return usageError{fmt.Errorf("--hold must be a duration of 0 or more, got %v", hold)}
			case fl.Changed("from") && !(from >= 0):
				return usageError{fmt.Errorf("--from must be a rate of 0 or more, got %v", from)}
			case fl.Changed("to") && !(to > 0):
				return usageError{fmt.Errorf("--to must be a rate above 0, got %v", to)}
			}
			b, err := budget.budget()
			if err != nil {
				return err
			}
			applyMemoryLimit(b)
			opt := hysteresis.Options{Client: client, Ramp: ramp, Hold: hold, Threshold: threshold,
				Bins: bins, Plots: !noPlots, SVG: svg, Budget: b}
			if hold == 0 {
				opt.Hold = hysteresis.NoHold
			}
			if fl.Changed("from") {
				opt.From = &from
			}
			if fl.Changed("to") {
				opt.To = &to
			}
			if fl.Changed("seed") {
				opt.Seed = &seed
			}
			r, err := hysteresis.NewRamp(exp.Model, opt)
			if err != nil {
				return usageError{err}
			}
			plan := r.Plan()
			w := c.OutOrStdout()
			fmt.Fprintf(w, "%s: %s from %s to %s rps and back, %v each way with %v holds: %s of simulated time, %s events (estimate)\n",
				exp.Name, r.Name, fmtRPS(r.From), fmtRPS(r.To), r.Ramp, r.Hold, r.Duration(), runner.FormatCount(runner.TotalEvents(plan)))
			if estimateOnly {
				return b.Check(plan)
			}
			ctx, stop := signalContext(c.Context(), c.ErrOrStderr())
			defer stop()
			out, err := hysteresis.Run(ctx, exp, opt, output.NewFolder(outDir, svg))
			if err != nil {
				if errors.Is(err, hysteresis.ErrSetup) {
					return usageError{err}
				}
				if errors.Is(err, context.Canceled) {
					return fmt.Errorf("interrupted: the ramp wrote nothing")
				}
				return err
			}
			warn(c.ErrOrStderr(), out.Warnings)
			fmt.Fprintf(w, "%s\noutputs in %s/\n", out.Result.Summary(), out.Dir)
			return nil
		},
	}
	c.Flags().StringVarP(&outDir, "out", "o", "", "output directory (default out/<experiment name>/hysteresis)")
	c.Flags().StringVar(&client, "client", "", "the open-loop client whose rate is ramped (default: the file's first with a constant rate)")
	c.Flags().Float64Var(&from, "from", 0, "the lowest rate, requests/s (default: 1/10 of the client's rate)")
	c.Flags().Float64Var(&to, "to", 0, "the highest rate, requests/s (default: twice the client's rate)")
	c.Flags().DurationVar(&ramp, "ramp", hysteresis.DefaultRamp, "each ramp's duration, up and down")
	c.Flags().DurationVar(&hold, "hold", hysteresis.DefaultHold, "each hold's duration: at --from before, at --to between, at --from after the ramps")
	c.Flags().Float64Var(&threshold, "threshold", hysteresis.DefaultThreshold, "a window is bistable when the branches' goodputs differ by more than this share of its load")
	c.Flags().IntVar(&bins, "bins", hysteresis.DefaultBins, "the band test's windows over [--from, --to]")
	c.Flags().Uint64Var(&seed, "seed", 0, "override the experiment's seed")
	c.Flags().BoolVar(&noPlots, "no-plots", false, "skip drawing the figure")
	c.Flags().BoolVar(&svg, "svg", false, "also write the figure as SVG")
	c.Flags().BoolVar(&estimateOnly, "estimate", false, "print the run's estimated cost, check it against the budget, and exit")
	budget.register(c)
	c.MarkFlagDirname("out")
	return c
}

// fmtRPS writes a rate without needless digits.
func fmtRPS(x float64) string {
	if x == math.Trunc(x) && x < 1e12 {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.4g", x)
}

package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/run/sweep"
)

func newSweepCmd() *cobra.Command {
	var (
		f     batchFlags
		shard string
	)
	c := &cobra.Command{
		Use:   "sweep FILE",
		Short: "Run an experiment over a grid of one or two parameters",
		Long: `Sweep runs the experiment's [sweep] grid: every combination of the x (and y)
axis values, each [experiment].replications times (or --replications), for the
base or the listed variants, with the same seeds in every cell. It prints a
one-line finding (where each variant stays locked in, which recover; without a
fault, which collapse along the axis), then the grid, and writes to the output directory:

  sweep.md, sweep.csv, sweep.json   the metric per cell, with its 95 % interval
  phase-<variant>.png               two axes: a heatmap of the metric (a phase diagram)
  sweep-<metric>.png                one axis: the metric against it, a line per variant

The default metric is the probability of staying locked in after the first
fault: the phase diagrams in which metastable regions show.

With --shard I/N it runs only shard I's share of the runs (of N, balanced by
estimated cost) and appends their records to a partial file in the output
folder (default out/<experiment name>/shards); 'ressim merge' turns the N
partial files into the same outputs, byte for byte. --shard auto/N takes I
from JOB_COMPLETION_INDEX (Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID
(Slurm array submitted as --array=0-(N-1)). Re-running a shard resumes it.
See docs/scale-out.md.`,
		Example:           "  ressim sweep experiments/metastable-phase.toml -j 2",
		Args:              exactArgs(1),
		ValidArgsFunction: tomlFiles,
		RunE: func(c *cobra.Command, args []string) error {
			exp, err := load(args[0])
			if err != nil {
				return err
			}
			if exp.Sweep == nil {
				return usageError{fmt.Errorf("%s has no [sweep] table", args[0])}
			}
			opt, ctx, stop, err := f.options(c)
			if err != nil {
				return err
			}
			defer stop()
			if shard != "" {
				return runShard(ctx, c, args[0], exp, shard, opt)
			}
			out, err := sweep.Run(ctx, exp, opt, output.NewFolder(opt.OutDir, opt.SVG))
			if out == nil {
				return err
			}
			warn(c.ErrOrStderr(), out.Warnings)
			if out.Result.Replications > 0 {
				w := c.OutOrStdout()
				if f := sweep.Finding(out.Result, out.Stats); f != "" {
					fmt.Fprintf(w, "%s: %s\n", exp.Name, f)
				}
				if out.Result.Replications < 2 {
					fmt.Fprintln(w, "note: 1 replication per cell gives no interval; --replications 2 or more (or [experiment].replications) gives one")
				}
				sweep.WriteTable(w, out.Result, out.Stats)
				fmt.Fprintf(c.OutOrStdout(), "\noutputs in %s/\n", out.Dir)
			}
			return stopped(err, out.Result.Replications, "cell")
		},
	}
	f.register(c, "out/<experiment name>/sweep")
	c.Flags().StringVar(&shard, "shard", "", "run only shard I of N (I/N, or auto/N from the batch engine's environment) and write a partial result")
	return c
}

package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/compare"
	"github.com/ressim/ressim/sim/run/output"
)

func newCompareCmd() *cobra.Command {
	var (
		f      batchFlags
		series string
		shard  string
	)
	c := &cobra.Command{
		Use:   "compare FILE",
		Short: "Run every variant of an experiment, replicated, and compare them",
		Long: `Compare runs the base experiment and each of its [[variant]] blocks, each
[experiment].replications times (or --replications), with the same seeds for
every variant so that differences are paired (common random numbers). Runs
execute in parallel (-j); the results do not depend on -j.

It prints first a one-line finding (which variants stay locked in after the
first fault and which recover, and which differ significantly from the base in
goodput), with a note when one replication per variant gives no interval;
then, per variant, the mean of each headline metric with its 95 %
Student-t interval, and for each variant the paired difference from the base,
marked * where its interval excludes zero; and writes to the output directory:

  compare.md, compare.csv, compare.json   the same table; compare.json also lists
                                          every replication (seed, fault verdicts,
                                          headline metrics, summary.json digest)
  timeseries.csv                          time series, tidy; --series picks whose:
                                          first (default) replication 0 of each
                                          variant, all every replication, none
  compare-timeline.png                    goodput and p99 over time, one line per variant
  bars-*.png                              each headline metric with interval whiskers

Ctrl-C or SIGTERM stops the runs in progress and writes the replications
that every variant finished; a second signal stops at once. The budget
flags bound the whole comparison (see 'ressim help run').

'ressim run FILE --variant V --replication K' re-runs one of the runs exactly,
with all of ressim run's outputs.

With --shard I/N it runs only shard I's share of the (variant, replication)
runs and writes a partial result (default folder out/<experiment name>/shards);
'ressim merge' turns the N partial files into the same outputs, byte for byte.
--shard auto/N takes I from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID (an
array submitted as --array=0-(N-1)). --series all cannot be sharded. See docs/scale-out.md.`,
		Example:           "  ressim compare experiments/metastable-retry-storm.toml -j 2",
		Args:              exactArgs(1),
		ValidArgsFunction: tomlFiles,
		RunE: func(c *cobra.Command, args []string) error {
			exp, err := load(args[0])
			if err != nil {
				return err
			}
			if err := run.CheckSeries(series); err != nil {
				return usageError{fmt.Errorf("--%w", err)}
			}
			opt, ctx, stop, err := f.options(c)
			if err != nil {
				return err
			}
			defer stop()
			opt.Series = series
			if shard != "" {
				return runShard(ctx, c, args[0], exp, shard, opt)
			}
			out, err := compare.Run(ctx, exp, opt, output.NewFolder(opt.OutDir, opt.SVG))
			if out == nil {
				return err
			}
			w := c.OutOrStdout()
			warn(c.ErrOrStderr(), out.Warnings)
			if out.Comparison.Replications > 0 {
				if f := compare.Finding(out.Comparison, out.Stats); f != "" {
					fmt.Fprintf(w, "%s: %s\n", exp.Name, f)
				}
				if n := compare.IntervalNote(out.Comparison); n != "" {
					fmt.Fprintln(w, n)
				}
			}
			fmt.Fprintf(w, "%s: %d variant(s) x %d replication(s), seed %d\n\n", exp.Name,
				len(out.Comparison.Arms), out.Comparison.Replications, out.Comparison.Seed)
			if out.Comparison.Replications > 0 {
				compare.WriteTable(w, out.Comparison, out.Stats, out.Locked, false)
				fmt.Fprintf(w, "\nΔ: paired difference from base, * where its 95 %% interval excludes zero\noutputs in %s/\n", out.Dir)
			}
			if err != nil {
				return stopped(err, out.Comparison.Replications, "variant")
			}
			return reportExpectations(w, run.CheckExpectations(exp, out.Comparison.ByVariant()))
		},
	}
	f.register(c, "out/<experiment name>/compare")
	c.Flags().StringVar(&series, "series", "", "whose time series timeseries.csv holds: first, all or none (default [experiment].compare_series, else first)")
	c.Flags().StringVar(&shard, "shard", "", "run only shard I of N (I/N, or auto/N from the batch engine's environment) and write a partial result")
	return c
}

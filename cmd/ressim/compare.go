package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ressim/ressim/sim/run"
)

func newCompareCmd() *cobra.Command {
	var (
		outDir  string
		jobs    int
		reps    int
		seed    uint64
		noPlots bool
		svg     bool
	)
	c := &cobra.Command{
		Use:   "compare FILE",
		Short: "Run every variant of an experiment, replicated, and compare them",
		Long: `Compare runs the base experiment and each of its [[variant]] blocks, each
[experiment].replications times (or --replications), with the same seeds for
every variant so that differences are paired (common random numbers). Runs
execute in parallel (-j); the results do not depend on -j.

It prints, per variant, the mean of each headline metric with its 95 %
Student-t interval, and for each variant the paired difference from the base,
marked * where its interval excludes zero; and writes to the output directory:

  compare.md, compare.csv, compare.json   the same table
  compare-timeline.png                    goodput and p99 over time, one line per variant
  bars-*.png                              each headline metric with interval whiskers

Ctrl-C stops after the runs in progress and writes what finished.`,
		Example:           "  ressim compare experiments/metastable-retry-storm.toml -j 2",
		Args:              exactArgs(1),
		ValidArgsFunction: tomlFiles,
		RunE: func(c *cobra.Command, args []string) error {
			exp, err := load(args[0])
			if err != nil {
				return err
			}
			opt := run.CompareOptions{OutDir: outDir, Jobs: jobs, Replications: reps, Plots: !noPlots, SVG: svg}
			if c.Flags().Changed("seed") {
				opt.Seed = &seed
			}
			if isTerminal(c.ErrOrStderr()) {
				opt.Progress = progressBar(c.ErrOrStderr())
			}
			ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt)
			defer stop()
			out, err := run.Compare(ctx, exp, opt)
			if out == nil {
				return err
			}
			w := c.OutOrStdout()
			fmt.Fprintf(w, "%s: %d variant(s) x %d replication(s), seed %d\n\n", exp.Name,
				len(out.Comparison.Arms), out.Comparison.Replications, out.Comparison.Seed)
			if out.Comparison.Replications > 0 {
				run.WriteCompareTable(w, out.Comparison, out.Stats, out.Locked, false)
				fmt.Fprintf(w, "\nΔ: paired difference from base, * where its 95 %% interval excludes zero\noutputs in %s/\n", out.Dir)
			}
			if errors.Is(err, context.Canceled) {
				return fmt.Errorf("interrupted: kept the %d replication(s) every variant finished", out.Comparison.Replications)
			}
			if err != nil {
				return err
			}
			return reportExpectations(w, run.CheckExpectations(exp, out.Comparison.ByVariant()))
		},
	}
	c.Flags().StringVarP(&outDir, "out", "o", "", "output directory (default out/<experiment name>/compare)")
	c.Flags().IntVarP(&jobs, "jobs", "j", 0, "runs in parallel (default: the number of CPUs)")
	c.Flags().IntVar(&reps, "replications", 0, "override [experiment].replications")
	c.Flags().Uint64Var(&seed, "seed", 0, "override the experiment's seed")
	c.Flags().BoolVar(&noPlots, "no-plots", false, "skip drawing the plots")
	c.Flags().BoolVar(&svg, "svg", false, "also write every figure as SVG")
	c.MarkFlagDirname("out")
	return c
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progressBar draws "[=====     ] 12/40 runs" on w, in place.
func progressBar(w io.Writer) func(done, total int) {
	return func(done, total int) {
		const width = 30
		n := width * done / max(total, 1)
		fmt.Fprintf(w, "\r[%s%s] %d/%d runs", strings.Repeat("=", n), strings.Repeat(" ", width-n), done, total)
		if done == total {
			fmt.Fprintln(w)
		}
	}
}

package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/ressim/ressim/internal/input"
	"os"

	"github.com/spf13/cobra"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
)

// readExperimentBytes reads the experiment file again, for its digest
// and to embed it in the partial result; it must be a regular file (a
// pipe cannot be read twice).
func readExperimentBytes(file string) ([]byte, error) {
	if file == experiment.Stdin {
		return nil, usageError{errors.New("--shard needs the experiment as a file, not stdin: every shard and the merge must read the same bytes")}
	}
	f, err := input.OpenRegular(file)
	if err != nil {
		return nil, usageError{err}
	}
	defer f.Close()
	data, err := input.Read(file, f, experiment.MaxFileSize, false)
	if err != nil {
		return nil, usageError{err}
	}
	return data, nil
}

// reportMerge prints the merged table, as the unsharded command does, and
// checks a comparison's [[expect]] blocks.
func reportMerge(c *cobra.Command, out *run.MergeOutput, n int) error {
	w := c.OutOrStdout()
	if s := out.Sweep; s != nil {
		warn(c.ErrOrStderr(), s.Warnings)
		run.WriteSweepTable(w, s.Result, s.Stats)
		fmt.Fprintf(w, "\nmerged %d partial file(s); outputs in %s/\n", n, s.Dir)
		return nil
	}
	cmp := out.Compare
	warn(c.ErrOrStderr(), cmp.Warnings)
	run.WriteCompareTable(w, cmp.Comparison, cmp.Stats, cmp.Locked, false)
	fmt.Fprintf(w, "\nmerged %d partial file(s); outputs in %s/\n", n, cmp.Dir)
	return reportExpectations(w, run.CheckExpectations(out.Experiment, cmp.Comparison.ByVariant()))
}

// runShard runs one shard of a sweep or comparison (--shard) and says
// what it did.
func runShard(ctx context.Context, c *cobra.Command, file string, exp *experiment.Experiment, spec string, opt run.CompareOptions) error {
	s, from, err := run.ParseShard(spec, os.Getenv)
	if err != nil {
		return usageError{fmt.Errorf("--%w", err)}
	}
	if from != "" {
		fmt.Fprintf(c.ErrOrStderr(), "shard %s: index from %s\n", s, from)
	}
	data, err := readExperimentBytes(file)
	if err != nil {
		return err
	}
	shard := run.RunSweepShard
	if c.Name() == "compare" {
		shard = run.RunCompareShard
	}
	sr, err := shard(ctx, exp, file, data, s, opt)
	if sr == nil {
		return err
	}
	fmt.Fprintf(c.OutOrStdout(), "%s: shard %s: %d unit(s), %d resumed, %d run\npartial result in %s\n",
		exp.Name, s, sr.Units, sr.Resumed, sr.Ran, sr.Path)
	if err != nil {
		return shardStopped(err, sr)
	}
	return nil
}

// shardStopped explains why a shard ended early, keeping the error's
// class (a budget exits exitBudget, anything else exitFailure), and says
// how to resume.
func shardStopped(err error, sr *run.ShardRun) error {
	kept := fmt.Sprintf("%d of %d unit(s) are in %s; run the same command again to resume", sr.Resumed+sr.Ran, sr.Units, sr.Path)
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("interrupted: %s", kept)
	}
	return fmt.Errorf("%w (%s)", err, kept)
}

func newMergeCmd() *cobra.Command {
	var (
		outDir       string
		noPlots, svg bool
	)
	c := &cobra.Command{
		Use:   "merge -o DIR PARTIAL...",
		Short: "Merge the partial results of a sharded sweep or comparison into its outputs",
		Long: `Merge reads the partial results that 'ressim sweep FILE --shard I/N' or
'ressim compare FILE --shard I/N' wrote (files, folders holding
*.partial.jsonl, or glob patterns) and writes the outputs the unsharded
command writes, byte for byte: sweep.md, sweep.csv, sweep.json or compare.md,
compare.csv, compare.json, timeseries.csv, and the figures. The partial files
carry the experiment file, so nothing else is needed. For a comparison it
re-runs replication 0 of each variant (the figures need its whole result),
checking it against the shard's record.

It refuses (exit status 2) corrupt or torn files, partials of another
experiment file, seed, replications, shard count or ressim version, and units
that are missing or held twice. See docs/scale-out.md.`,
		Example: "  ressim merge -o out/phase out/metastable-phase/shards/",
		Args:    cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			paths, err := run.PartialPaths(args)
			if err != nil {
				return usageError{err}
			}
			opt := run.CompareOptions{OutDir: outDir, Plots: !noPlots, SVG: svg}
			out, err := run.Merge(paths, opt)
			if errors.Is(err, run.ErrPartial) {
				return usageError{err}
			}
			if err != nil {
				return err
			}
			return reportMerge(c, out, len(paths))
		},
	}
	c.Flags().StringVarP(&outDir, "out", "o", "", "output directory (default out/<experiment name>/sweep or compare)")
	c.Flags().BoolVar(&noPlots, "no-plots", false, "skip drawing the plots")
	c.Flags().BoolVar(&svg, "svg", false, "also write every figure as SVG")
	c.MarkFlagDirname("out")
	return c
}

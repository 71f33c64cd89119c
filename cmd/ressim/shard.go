package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
)

// runSweepShard runs one shard of a sweep (--shard) and says what it did.
func runSweepShard(c *cobra.Command, file string, exp *experiment.Experiment, spec string, opt run.CompareOptions, ctx context.Context) error {
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
	sr, err := run.RunSweepShard(ctx, exp, file, data, s, opt)
	if sr == nil {
		return err
	}
	fmt.Fprintf(c.OutOrStdout(), "%s: shard %s: %d unit(s), %d resumed, %d run\npartial result in %s\n",
		exp.Name, s, sr.Units, sr.Resumed, sr.Ran, sr.Path)
	if err != nil {
		return stopped(err, sr.Resumed+sr.Ran, "unit of the shard")
	}
	return nil
}

// readExperimentBytes reads the experiment file again, for its digest
// and to embed it in the partial result; it must be a regular file (a
// pipe cannot be read twice).
func readExperimentBytes(file string) ([]byte, error) {
	if file == experiment.Stdin {
		return nil, usageError{errors.New("--shard needs the experiment as a file, not stdin: every shard and the merge must read the same bytes")}
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, usageError{err}
	}
	if len(data) > experiment.MaxFileSize {
		return nil, usageError{fmt.Errorf("%s: larger than %d bytes", file, experiment.MaxFileSize)}
	}
	return data, nil
}

func newMergeCmd() *cobra.Command {
	var (
		outDir       string
		noPlots, svg bool
	)
	c := &cobra.Command{
		Use:   "merge -o DIR PARTIAL...",
		Short: "Merge the partial results of sharded sweeps into the sweep's outputs",
		Long: `Merge reads the partial results that 'ressim sweep FILE --shard I/N' wrote
(files, folders holding *.partial.jsonl, or glob patterns) and writes the
outputs the unsharded sweep writes, byte for byte: sweep.md, sweep.csv,
sweep.json and the figures. The partial files carry the experiment file, so
nothing else is needed.

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
			out, err := run.MergeSweep(paths, opt)
			if errors.Is(err, run.ErrPartial) {
				return usageError{err}
			}
			if err != nil {
				return err
			}
			warn(c.ErrOrStderr(), out.Warnings)
			run.WriteSweepTable(c.OutOrStdout(), out.Result, out.Stats)
			fmt.Fprintf(c.OutOrStdout(), "\nmerged %d partial file(s); outputs in %s/\n", len(paths), out.Dir)
			return nil
		},
	}
	c.Flags().StringVarP(&outDir, "out", "o", "", "output directory (default out/<experiment name>/sweep)")
	c.Flags().BoolVar(&noPlots, "no-plots", false, "skip drawing the plots")
	c.Flags().BoolVar(&svg, "svg", false, "also write every figure as SVG")
	c.MarkFlagDirname("out")
	return c
}

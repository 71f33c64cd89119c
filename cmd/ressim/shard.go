package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ressim/ressim/internal/input"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/compare"
	"github.com/ressim/ressim/sim/run/shard"
	"github.com/ressim/ressim/sim/run/sweep"
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

// reportMerge prints the merged table, as the unsharded command does,
// what --verify checked, and checks a comparison's [[expect]] blocks.
func reportMerge(c *cobra.Command, out *shard.MergeOutput, n int) error {
	w := c.OutOrStdout()
	if s := out.Sweep; s != nil {
		warn(c.ErrOrStderr(), s.Warnings)
		sweep.WriteTable(w, s.Result, s.Stats)
		reportVerified(w, out.Verified)
		fmt.Fprintf(w, "\nmerged %d partial file(s); outputs in %s/\n", n, s.Dir)
		return nil
	}
	cmp := out.Compare
	warn(c.ErrOrStderr(), cmp.Warnings)
	compare.WriteTable(w, cmp.Comparison, cmp.Stats, cmp.Locked, false)
	reportVerified(w, out.Verified)
	fmt.Fprintf(w, "\nmerged %d partial file(s); outputs in %s/\n", n, cmp.Dir)
	return reportExpectations(w, run.CheckExpectations(out.Experiment, cmp.Comparison.ByVariant()))
}

// runShard runs one shard of a sweep or comparison (--shard) and says
// what it did.
func runShard(ctx context.Context, c *cobra.Command, file string, exp *experiment.Experiment, spec string, opt run.CompareOptions) error {
	s, from, err := shard.ParseShard(spec, os.Getenv)
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
	runPart := shard.RunSweepShard
	if c.Name() == "compare" {
		runPart = shard.RunCompareShard
	}
	sr, err := runPart(ctx, exp, file, data, s, opt)
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
func shardStopped(err error, sr *shard.ShardRun) error {
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
		jobs, verify int
		verifySeed   uint64
		bf           budgetFlags
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

Each unit line carries a SHA-256, which catches corruption, not forgery:
anyone can edit a result and recompute it. --verify K re-runs K units chosen
at random (from crypto/rand; --verify-seed S to repeat a choice) and refuses
the merge unless each re-run gives its line byte for byte; it costs K runs.
Every run the merge makes is bounded by --max-events, --max-memory and
--timeout (exit status 4).

It refuses (exit status 2) corrupt or torn files, anything but regular
files, partials of another experiment file, seed, replications, shard count
or ressim version, units that are missing or held twice, and with --verify
a unit whose re-run differs. A refused merge writes nothing. See
docs/scale-out.md.`,
		Example: `  ressim merge -o out/phase out/metastable-phase/shards/
  ressim merge -o out/phase --verify 20 out/metastable-phase/shards/`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if err := checkCounts(c, jobs, 0, 0); err != nil {
				return err
			}
			if verify < 0 {
				return usageError{fmt.Errorf("--verify must be >= 0 (0: none), got %d", verify)}
			}
			b, err := bf.budget()
			if err != nil {
				return err
			}
			paths, err := shard.PartialPaths(args)
			if err != nil {
				return usageError{err}
			}
			applyMemoryLimit(b)
			ctx, stop := signalContext(c.Context(), c.ErrOrStderr())
			defer stop()
			opt := shard.MergeOptions{OutDir: outDir, Plots: !noPlots, SVG: svg, Jobs: jobs, Budget: b, Verify: verify}
			if c.Flags().Changed("verify-seed") {
				opt.VerifySeed = &verifySeed
			}
			if isTerminal(c.ErrOrStderr()) {
				opt.Progress = progressBar(c.ErrOrStderr(), "runs")
			}
			out, err := shard.Merge(ctx, paths, opt)
			switch {
			case errors.Is(err, shard.ErrPartial):
				return usageError{err}
			case errors.Is(err, context.Canceled):
				return fmt.Errorf("interrupted: nothing written, the output folder keeps its previous set")
			case err != nil:
				return err
			}
			return reportMerge(c, out, len(paths))
		},
	}
	c.Flags().StringVarP(&outDir, "out", "o", "", "output directory (default out/<experiment name>/sweep or compare)")
	c.Flags().BoolVar(&noPlots, "no-plots", false, "skip drawing the plots")
	c.Flags().BoolVar(&svg, "svg", false, "also write every figure as SVG")
	c.Flags().IntVarP(&jobs, "jobs", "j", 0, "runs in parallel when re-running units (default: the number of CPUs)")
	c.Flags().IntVar(&verify, "verify", 0, "re-run this many units chosen at random and refuse the merge unless each gives its partial line byte for byte (0: none; more than the units: all)")
	c.Flags().Uint64Var(&verifySeed, "verify-seed", 0, "choose the units --verify re-runs with this seed, to repeat a check (default: a seed from crypto/rand, printed)")
	bf.register(c)
	c.MarkFlagDirname("out")
	return c
}

// reportVerified says which units merge --verify re-ran, and the seed
// that chose them, with which --verify-seed repeats the choice.
func reportVerified(w io.Writer, v *shard.Verification) {
	if v == nil {
		return
	}
	fmt.Fprintln(w)
	if len(v.Units) == v.Total {
		fmt.Fprintf(w, "verified all %d unit(s): each re-run gave its partial line byte for byte\n", v.Total)
		return
	}
	ids := make([]string, len(v.Units))
	for i, u := range v.Units {
		ids[i] = strconv.Itoa(u)
	}
	fmt.Fprintf(w, "verified %d of %d unit(s) (--verify-seed %d): each re-run gave its partial line byte for byte; units %s\n",
		len(v.Units), v.Total, v.Seed, strings.Join(ids, " "))
}

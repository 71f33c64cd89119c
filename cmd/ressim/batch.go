package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ressim/ressim/internal/termsafe"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/runner"
)

// batchFlags are the flags compare and sweep share.
type batchFlags struct {
	outDir  string
	jobs    int
	reps    int
	seed    uint64
	noPlots bool
	svg     bool
	budget  budgetFlags
}

func (f *batchFlags) register(c *cobra.Command, defaultOut string) {
	c.Flags().StringVarP(&f.outDir, "out", "o", "", "output directory (default "+defaultOut+")")
	c.Flags().IntVarP(&f.jobs, "jobs", "j", 0, "runs in parallel (default: the number of CPUs)")
	c.Flags().IntVar(&f.reps, "replications", 0, "override [experiment].replications")
	c.Flags().Uint64Var(&f.seed, "seed", 0, "override the experiment's seed")
	c.Flags().BoolVar(&f.noPlots, "no-plots", false, "skip drawing the plots")
	c.Flags().BoolVar(&f.svg, "svg", false, "also write every figure as SVG")
	f.budget.register(c)
	c.MarkFlagDirname("out")
}

// options turns the flags into run options, with a progress bar on a
// terminal, and returns a context that the first SIGINT or SIGTERM
// cancels (signalContext). Out-of-range counts are usage errors.
func (f *batchFlags) options(c *cobra.Command) (run.CompareOptions, context.Context, context.CancelFunc, error) {
	if err := checkCounts(c, f.jobs, f.reps, f.seed); err != nil {
		return run.CompareOptions{}, nil, nil, err
	}
	b, err := f.budget.budget()
	if err != nil {
		return run.CompareOptions{}, nil, nil, err
	}
	applyMemoryLimit(b)
	opt := run.CompareOptions{OutDir: f.outDir, Jobs: f.jobs, Replications: f.reps, Plots: !f.noPlots, SVG: f.svg, Budget: b}
	if c.Flags().Changed("seed") {
		opt.Seed = &f.seed
	}
	if isTerminal(c.ErrOrStderr()) {
		opt.Progress = progressBar(c.ErrOrStderr(), "runs")
	}
	ctx, stop := signalContext(c.Context(), c.ErrOrStderr())
	return opt, ctx, stop, nil
}

// applyMemoryLimit makes the garbage collector work harder near the
// memory budget, so that the heap it measures is mostly live data, and,
// with that bound in place, less often far below it: GOGC 200 instead of
// 100, unless the environment sets GOGC. A run's first collection then
// comes at 8 MB of heap instead of 4, which most bundled runs never reach
// (a collection is 3-5 ms of CPU, docs/performance.md); without a memory
// budget (--max-memory 0) the collector keeps its default.
func applyMemoryLimit(b runner.Budget) {
	if b.MaxMemory > 0 && b.MaxMemory < math.MaxInt64 {
		debug.SetMemoryLimit(int64(b.MaxMemory))
		if os.Getenv("GOGC") == "" {
			debug.SetGCPercent(gcPercent)
		}
	}
}

// gcPercent is the collector's GOGC under a memory budget.
const gcPercent = 200

// stopped explains why a batch ended early, keeping the error's class:
// a budget exits exitBudget, an interruption exitFailure.
func stopped(err error, kept int, what string) error {
	switch {
	case errors.Is(err, runner.ErrBudget):
		return fmt.Errorf("%w (kept the %d replication(s) every %s finished)", err, kept, what)
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("interrupted: kept the %d replication(s) every %s finished", kept, what)
	}
	return err
}

// warn prints the figures that could not be drawn.
func warn(w io.Writer, warnings []string) {
	for _, s := range warnings {
		fmt.Fprintln(w, "ressim: warning:", termsafe.Line(s))
	}
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
func progressBar(w io.Writer, unit string) func(done, total int) {
	return func(done, total int) {
		const width = 30
		n := width * done / max(total, 1)
		fmt.Fprintf(w, "\r[%s%s] %d/%d %s", strings.Repeat("=", n), strings.Repeat(" ", width-n), done, total, unit)
		if done == total {
			fmt.Fprintln(w)
		}
	}
}

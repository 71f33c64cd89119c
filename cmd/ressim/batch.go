package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ressim/ressim/sim/run"
)

// batchFlags are the flags compare and sweep share.
type batchFlags struct {
	outDir  string
	jobs    int
	reps    int
	seed    uint64
	noPlots bool
	svg     bool
}

func (f *batchFlags) register(c *cobra.Command, defaultOut string) {
	c.Flags().StringVarP(&f.outDir, "out", "o", "", "output directory (default "+defaultOut+")")
	c.Flags().IntVarP(&f.jobs, "jobs", "j", 0, "runs in parallel (default: the number of CPUs)")
	c.Flags().IntVar(&f.reps, "replications", 0, "override [experiment].replications")
	c.Flags().Uint64Var(&f.seed, "seed", 0, "override the experiment's seed")
	c.Flags().BoolVar(&f.noPlots, "no-plots", false, "skip drawing the plots")
	c.Flags().BoolVar(&f.svg, "svg", false, "also write every figure as SVG")
	c.MarkFlagDirname("out")
}

// options turns the flags into run options, with a progress bar on a
// terminal, and returns a context that Ctrl-C cancels.
func (f *batchFlags) options(c *cobra.Command) (run.CompareOptions, context.Context, context.CancelFunc) {
	opt := run.CompareOptions{OutDir: f.outDir, Jobs: f.jobs, Replications: f.reps, Plots: !f.noPlots, SVG: f.svg}
	if c.Flags().Changed("seed") {
		opt.Seed = &f.seed
	}
	if isTerminal(c.ErrOrStderr()) {
		opt.Progress = progressBar(c.ErrOrStderr(), "runs")
	}
	ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt)
	return opt, ctx, stop
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

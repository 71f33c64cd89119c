package main

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/topology"
)

func newRunCmd() *cobra.Command {
	var (
		outDir  string
		seed    uint64
		noPlots bool
	)
	c := &cobra.Command{
		Use:   "run FILE",
		Short: "Run an experiment and write its results and plots",
		Long: `Run simulates the experiment in FILE and writes, to the output directory:

  summary.json      per-service statistics over the measurement window
  timeseries.csv    per-interval metrics of the whole run (tidy CSV)
  timeline-*.png    one timeline plot per service (unless --no-plots)

A one-line summary per service is printed. The same file and seed always
give byte-identical outputs.`,
		Example: `  ressim run experiments/mm10.toml
  ressim run experiments/mm10.toml -o /tmp/mm10 --seed 7 --no-plots`,
		Args:              exactArgs(1),
		ValidArgsFunction: tomlFiles,
		RunE: func(c *cobra.Command, args []string) error {
			exp, err := load(args[0])
			if err != nil {
				return err
			}
			opt := run.Options{OutDir: outDir, Plots: !noPlots}
			if c.Flags().Changed("seed") {
				opt.Seed = &seed
			}
			out, err := run.Execute(exp, opt)
			if err != nil {
				return err
			}
			printSummary(c.OutOrStdout(), out)
			return nil
		},
	}
	c.Flags().StringVarP(&outDir, "out", "o", "", "output directory (default out/<experiment name>)")
	c.Flags().Uint64Var(&seed, "seed", 0, "override the experiment's seed")
	c.Flags().BoolVar(&noPlots, "no-plots", false, "skip drawing the plots (data files only)")
	c.MarkFlagDirname("out")
	return c
}

func tomlFiles(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return []string{"toml"}, cobra.ShellCompDirectiveFilterFileExt
}

// printSummary prints one line per service and where the outputs are.
func printSummary(w io.Writer, out *run.Output) {
	res := out.Result
	fmt.Fprintf(w, "%s: seed %d, %v simulated (%v warm-up), %d events\n",
		res.Name, res.Seed, res.Duration, res.Warmup, res.Events)
	for _, s := range res.Services {
		fmt.Fprintln(w, serviceLine(s))
	}
	fmt.Fprintf(w, "outputs in %s/\n", out.Dir)
}

func serviceLine(s topology.ServiceResult) string {
	line := fmt.Sprintf("  %s: %d arrivals, %d completed (%.1f/s), %d rejected, utilization %.1f%%",
		s.Name, s.Arrivals, s.Completed, s.Throughput, s.Rejected, 100*s.Utilization)
	if s.Sojourn.Count() > 0 {
		line += fmt.Sprintf(", wait %s, latency mean %s p50 %s p99 %s",
			ms(s.Wait.Mean()), ms(s.Sojourn.Mean()),
			ms(float64(s.Sojourn.Quantile(0.5))), ms(float64(s.Sojourn.Quantile(0.99))))
	}
	return line
}

// ms formats nanoseconds as milliseconds with three significant decimals.
func ms(ns float64) string {
	return time.Duration(ns).Round(time.Microsecond).String()
}

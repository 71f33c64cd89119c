package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/topology"
)

func newRunCmd() *cobra.Command {
	var (
		outDir  string
		seed    uint64
		noPlots bool
		svg     bool
		trace   int
		tformat string
		rf      replicaFlags
		bf      budgetFlags
		om      omFlags
	)
	c := &cobra.Command{
		Use:   "run FILE",
		Short: "Run an experiment and write its results and plots",
		Long: `Run simulates the experiment in FILE and writes, to the output directory:

  summary.json      per-service statistics over the measurement window
  timeseries.csv    per-interval metrics of the whole run (tidy CSV)
  overview.png      what the users got, load, occupancy, breakers, latency
  timeline-*.png    one timeline plot per service (unless --no-plots)
  trace.json        with --trace N: one user request in N as a trace
                    (each attempt, queue wait, work, downstream call and
                    retry backoff a slice), for ui.perfetto.dev
  trace.otlp.json   with --trace N --trace-format otlp (or both): the same
                    requests as an OTLP/JSON trace for OpenTelemetry tools,
                    one resource per client and service, a CLIENT span per
                    attempt and a SERVER span per handling, timed from
                    --openmetrics-start
  metrics.om        with --openmetrics: the time series as OpenMetrics
                    text, for promtool tsdb create-blocks-from openmetrics
                    (docs/observability.md)
  metrics.prom      with --prometheus-text: the same samples as Prometheus
                    text format 0.0.4, for promtool check metrics

A one-line summary per service is printed. The same file and seed always
give byte-identical outputs.

--variant and --replication re-run one run of 'ressim compare' exactly: that
variant's model, replication K's seed (derived from the experiment's seed, or
--seed, as compare derives it), so its summary.json is byte-identical to the
one whose digest compare.json lists (summary_sha256). --cell X[,Y] picks a
cell of 'ressim sweep' the same way (sweep.json's x_index, y_index). Outputs
then go to out/<name>/replica/<variant>[-xXyY]-rK unless -o is given.

The outputs are committed as a whole: the output folder holds either the
previous complete set or the new one, never a mix (docs/security.md).

Budgets: a run estimated (see 'ressim validate') or found while running to
exceed --max-events, --max-memory or --timeout stops and exits with status
4, naming the budget and the keys that drive the cost; the previous outputs
are kept. SIGINT or SIGTERM stops the run the same way (status 1).`,
		Example: `  ressim run experiments/mm10.toml
  ressim run experiments/mm10.toml -o /tmp/mm10 --seed 7 --no-plots
  ressim run experiments/metastable-retry-storm.toml --variant retry-budget --replication 3
  ressim run experiments/metastable-phase.toml --cell 2,1 --replication 0`,
		Args:              exactArgs(1),
		ValidArgsFunction: tomlFiles,
		RunE: func(c *cobra.Command, args []string) error {
			exp, err := load(args[0])
			if err != nil {
				return err
			}
			replica, err := rf.replica(c)
			if err != nil {
				return err
			}
			if err := checkRunFlags(c, trace, seed); err != nil {
				return err
			}
			tf, err := run.ParseTraceFormat(tformat)
			if err != nil {
				return usageError{fmt.Errorf("--trace-format: %w", err)}
			}
			traceStart, err := om.startTime()
			if err != nil {
				return err
			}
			b, err := bf.budget()
			if err != nil {
				return err
			}
			omOpt, omOn, err := om.options()
			if err != nil {
				return err
			}
			applyMemoryLimit(b)
			ctx, stop := signalContext(c.Context(), c.ErrOrStderr())
			defer stop()
			opt := run.Options{Plots: !noPlots, TraceEvery: trace, TraceFormat: tf, TraceStart: traceStart, Replica: replica, Budget: b, Context: ctx, HistogramSeries: om.on, PrometheusText: om.prom}
			if isTerminal(c.ErrOrStderr()) {
				opt.Progress = simProgress(c.ErrOrStderr())
			}
			if c.Flags().Changed("seed") {
				opt.Seed = &seed
			}
			out, err := run.Execute(exp, opt, output.NewFolder(outDir, svg))
			if errors.Is(err, context.Canceled) {
				return fmt.Errorf("interrupted: nothing written, the output folder keeps its previous set")
			}
			if err != nil {
				return err
			}
			warn(c.ErrOrStderr(), out.Warnings)
			if omOn {
				if _, err := om.write(out, omOpt); err != nil {
					return err
				}
			}
			if replica != nil {
				fmt.Fprintf(c.OutOrStdout(), "replica %s of %s\n", replica.Label(), args[0])
			}
			printSummary(c.OutOrStdout(), out)
			if len(exp.Expects) == 0 {
				return nil
			}
			return reportExpectations(c.OutOrStdout(), run.CheckExpectations(exp, expectedOf(replica, out)))
		},
	}
	c.Flags().StringVarP(&outDir, "out", "o", "", "output directory (default out/<experiment name>)")
	c.Flags().Uint64Var(&seed, "seed", 0, "override the experiment's seed")
	c.Flags().BoolVar(&noPlots, "no-plots", false, "skip drawing the plots (data files only)")
	c.Flags().BoolVar(&svg, "svg", false, "also write every figure as SVG")
	c.Flags().IntVar(&trace, "trace", 0, "trace one user request in N into trace.json (open it in ui.perfetto.dev); at most 200")
	c.Flags().StringVar(&tformat, "trace-format", "perfetto", "the --trace files: perfetto (trace.json), otlp (trace.otlp.json, OpenTelemetry's OTLP/JSON) or both")
	rf.register(c)
	bf.register(c)
	om.register(c)
	c.MarkFlagDirname("out")
	return c
}

// expectedOf is what a run's [[expect]] blocks are checked against: the
// base's, or the variant's when it re-runs one; nothing for a sweep cell,
// whose settings differ from every variant's.
func expectedOf(p *run.Replica, out *run.Output) map[string][]run.Headline {
	name := "base"
	if p != nil {
		if p.Cell != nil {
			return nil
		}
		if p.Variant != "" {
			name = p.Variant
		}
	}
	return map[string][]run.Headline{name: {run.NewHeadline(out.Result)}}
}

func tomlFiles(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return []string{"toml"}, cobra.ShellCompDirectiveFilterFileExt
}

// printSummary prints the headline first (the verdict, the users'
// goodput share and the requests in flight), then one line per client,
// service and fault, and where the outputs are.
func printSummary(w io.Writer, out *run.Output) {
	res := out.Result
	fmt.Fprintf(w, "%s: seed %d, %v simulated (%v warm-up), %d events\n",
		res.Name, res.Seed, res.Duration, res.Warmup, res.Events)
	fmt.Fprintln(w, headlineLine(res))
	for _, c := range res.Clients {
		fmt.Fprintln(w, clientLine(c))
	}
	for _, s := range res.Services {
		fmt.Fprintln(w, serviceLine(s))
	}
	for _, f := range res.Faults {
		fmt.Fprintln(w, faultLine(f))
	}
	fmt.Fprintf(w, "outputs in %s/\n", out.Dir)
}

// headlineLine says at a glance whether the system is healthy: a
// locked-in run cannot look like a healthy one here.
func headlineLine(res *topology.Result) string {
	h := run.NewHeadlineSummary(res)
	line := "  => "
	switch {
	case h.Verdict == "":
		line += "no fault"
	case topology.IsLockedIn(h.Verdict):
		line += strings.ToUpper(strings.ReplaceAll(h.Verdict, "_", " "))
	default:
		line += strings.ReplaceAll(h.Verdict, "_", " ")
	}
	if h.GoodputShare != nil {
		line += fmt.Sprintf("; users got %.1f%% of their requests answered in full and in time", 100**h.GoodputShare)
	}
	line += fmt.Sprintf("; %d requests in flight at the end (peak %d)", h.InFlightAtEnd, h.PeakInFlight)
	if h.P99OutcomeLatencyS != nil {
		line += fmt.Sprintf("; p99 to any outcome %s", ms(*h.P99OutcomeLatencyS*1e9))
	}
	return line
}

func clientLine(c topology.ClientResult) string {
	line := fmt.Sprintf("  client %s: %d sent, goodput %.1f/s", c.Name, c.Sent, c.Goodput)
	if c.Degraded > 0 {
		line += fmt.Sprintf(", degraded %.1f/s", c.DegradedRate)
	}
	failed := c.Late + c.Expired + c.Errors + c.Rejected + c.Dropped
	if c.Sent > 0 {
		line += fmt.Sprintf(", %.1f%% failed", 100*float64(failed)/float64(c.Sent))
	}
	if c.InFlightAtEnd > 0 {
		line += fmt.Sprintf(", %d in flight at the end", c.InFlightAtEnd)
	}
	if c.Latency.Count() > 0 {
		line += fmt.Sprintf(", answered latency p50 %s p99 %s", ms(float64(c.Latency.Quantile(0.5))), ms(float64(c.Latency.Quantile(0.99))))
	}
	if c.OutcomeLatency.Count() > 0 {
		line += fmt.Sprintf(", to any outcome p50 %s p99 %s", ms(float64(c.OutcomeLatency.Quantile(0.5))), ms(float64(c.OutcomeLatency.Quantile(0.99))))
	}
	return line
}

func faultLine(f topology.FaultResult) string {
	r := f.Recovery
	line := fmt.Sprintf("  fault %q (%v-%v): ", f.Label, f.Start, f.End)
	switch r.Verdict {
	case topology.VerdictLockedIn:
		return line + "LOCKED IN: " + r.Reason
	case topology.VerdictRelapsed:
		return line + "RELAPSED (locked in): " + r.Reason
	case topology.VerdictRecovered:
		return line + "recovered: " + r.Reason
	case topology.VerdictUnaffected:
		return line + "unaffected: " + r.Reason
	}
	return line + "no verdict: " + r.Reason
}

func serviceLine(s topology.ServiceResult) string {
	line := fmt.Sprintf("  service %s: %d arrivals, %d completed (%.1f/s), %d rejected, utilization %.1f%%",
		s.Name, s.Arrivals, s.Completed, s.Throughput, s.Rejected, 100*s.Utilization)
	if s.Amplification > 1.001 {
		line += fmt.Sprintf(", amplification %.2fx", s.Amplification)
	}
	if s.WastedWork > 0 {
		line += fmt.Sprintf(", wasted %.1f worker-s", s.WastedWork.Seconds())
	}
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

// simProgress draws the simulated time reached as a bar, in place, at most
// once per whole percent.
func simProgress(w io.Writer) func(now, end time.Duration) {
	last := -1
	bar := progressBar(w, "percent of the simulated time")
	return func(now, end time.Duration) {
		pct := int(100 * now / max(end, 1))
		if pct != last {
			last = pct
			bar(pct, 100)
		}
	}
}

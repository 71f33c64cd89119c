package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/ressim/ressim/sim/alerts"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/report"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/runner"
)

func newAlertsCmd() *cobra.Command {
	var (
		rules, testOut string
		seed           uint64
		every, horizon time.Duration
		keep, figure   string
		rf             replicaFlags
		bf             budgetFlags
		expects        []string
	)
	c := &cobra.Command{
		Use:   "alerts FILE [--rules RULES.yml]",
		Short: "Evaluate Prometheus alerting rules on a simulated incident",
		Long: `Alerts runs the experiment in FILE, and the same run without its faults, and
evaluates the Prometheus alerting and recording rules in RULES.yml on both
with Prometheus' own rule engine (promtool test rules; install Debian's
prometheus package). The run's time series are those of 'ressim run
--openmetrics' (docs/observability.md).

For every fault and every alert it prints when the alert went pending and
firing relative to the fault's start (time to detect), and whether and when
it resolved after the fault's end; an alert that also fires in the fault-free
run is a false alarm, never a detection. The report leads with one line per
fault: detected by which alert after how long, or missed; resolved after how
long, or still firing at the horizon.

When an alert that fired is still active at the run's end, the same model
(faults unchanged) is simulated longer, by --horizon (default: the rules'
longest window plus its for; a multi-window "and" counts its shortest), so
that its time to resolve can be shown; the report says by how much the run
was extended. --horizon 0 keeps the run's own duration.

--promtool-test OUT.yml writes a promtool unit-test file that expects
exactly the alerts seen in the run at every change of state, checked to pass;
it runs in a team's own CI with 'promtool test rules OUT.yml', without ressim.

Without --rules, the experiment's [alerts] table names the rules file
(relative to the experiment file's folder) and its [[expect]] blocks with an
alert key state what must happen, so the rules are a regression test kept in
the experiment file (docs/experiment-format.md): fires_within (at most D after
the fault's start), resolves_within (at most D after its end), never_fires.
An expectation naming an alert the rules file does not declare is an error
(exit status 2).

--expect states the same on the command line: "ALERT fires within D" (in every
fault, at most D after its start), "ALERT resolves within D" (at most D after
its end), "ALERT silent" (never fires, with or without faults), "no false
alarms". A failed expectation exits with status 3.

--variant and --replication evaluate one run of 'ressim compare' instead of
the base, exactly as 'ressim run' re-runs it.`,
		Example: `  ressim alerts experiments/alerts/degraded-200.toml
  ressim alerts experiments/alerts/degraded-200.toml --rules experiments/alerts/degraded-200.rules.yml
  ressim alerts experiments/alerts/degraded-200.toml --rules experiments/alerts/degraded-200.rules.yml \
    --expect "FallbackServedTooLong fires within 6m" --expect "AvailabilitySLONaive silent" --expect "no false alarms"
  ressim alerts experiments/metastable-retry-storm.toml --rules experiments/alerts/retry-storm.rules.yml --variant retry-budget --replication 0
  ressim alerts experiments/breaker-fallback.toml --rules my-rules.yml --eval-interval 5s --promtool-test fallback.test.yml`,
		Args:              exactArgs(1),
		ValidArgsFunction: tomlFiles,
		RunE: func(c *cobra.Command, args []string) error {
			checks, err := parseAlertExpects(expects)
			if err != nil {
				return err
			}
			exp, err := load(args[0])
			if err != nil {
				return err
			}
			replica, err := rf.replica(c)
			if err != nil {
				return err
			}
			b, err := bf.budget()
			if err != nil {
				return err
			}
			ctx, stop := signalContext(c.Context(), c.ErrOrStderr())
			defer stop()
			ctx, cancel := b.Bound(ctx)
			defer cancel()
			return b.Explain(ctx, runAlerts(ctx, c, alertsRun{file: args[0], exp: exp, rules: rules, replica: replica,
				seed: seed, every: every, horizon: horizon, noExtension: c.Flags().Changed("horizon") && horizon == 0, keep: keep, figure: figure, testOut: testOut, checks: checks, budget: b}))
		},
	}
	c.Flags().StringVar(&rules, "rules", "", "Prometheus rules file (default: the experiment's [alerts] rules, with its [[expect]] blocks on alerts)")
	c.Flags().Uint64Var(&seed, "seed", 0, "override the experiment's seed")
	c.Flags().DurationVar(&every, "eval-interval", alerts.DefaultEvalInterval, "rule evaluation interval (a multiple of the experiment's interval; default: [alerts] eval_interval, else 15s)")
	c.Flags().DurationVar(&horizon, "horizon", 0, "when an alert is still firing at the run's end, simulate the same model this much longer for it to resolve (default: the rules' longest window plus its for; 0 with the flag: do not extend)")
	c.Flags().StringVar(&testOut, "promtool-test", "", "write a promtool unit-test file expecting the alerts seen in the run")
	rf.register(c)
	bf.register(c)
	c.Flags().StringArrayVar(&expects, "expect", nil, `assert on the report (repeatable): "ALERT fires within 6m", "ALERT resolves within 10m", "ALERT silent", "no false alarms"; a failure exits with status 3`)
	c.Flags().StringVar(&figure, "figure", "", "draw the users' goodput and every alert's pending and firing spans to this file (.png or .svg)")
	c.Flags().StringVar(&keep, "keep", "", "keep the generated promtool test files in this directory")
	return c
}

// alertsRun is what one ressim alerts command evaluates.
type alertsRun struct {
	file, rules, keep, figure, testOut string
	exp                                *experiment.Experiment
	replica                            *run.Replica
	seed                               uint64
	every, horizon                     time.Duration
	noExtension                        bool
	checks                             []alerts.Expect
	budget                             runner.Budget
}

// runAlerts runs the incident and its baseline under a.budget, evaluates
// the rules with promtool under ctx's deadline, and reports.
func runAlerts(ctx context.Context, c *cobra.Command, a alertsRun) error {
	src, err := alertSource(ctx, c.OutOrStdout(), a.file, a.exp, a.rules, a.replica)
	if err != nil {
		return err
	}
	if !c.Flags().Changed("eval-interval") && src.every > 0 {
		a.every = src.every
	}
	checks := append(a.checks, src.checks...)
	cfg := a.exp.Model
	if c.Flags().Changed("seed") {
		cfg.Seed = a.seed
	}
	if a.replica != nil {
		if cfg, err = run.ReplicaModel(a.exp, *a.replica, cfg.Seed); err != nil {
			return err
		}
	}
	if a.keep != "" {
		if err := os.MkdirAll(a.keep, 0o755); err != nil {
			return err
		}
	}
	if a.horizon < 0 {
		return usageError{fmt.Errorf("--horizon %v: want 0 or more", a.horizon)}
	}
	opt := alerts.Options{Rules: src.rules, EvalInterval: a.every, Dir: a.keep, Budget: a.budget,
		Horizon: a.horizon, NoExtension: a.noExtension}
	rep, err := alerts.Evaluate(ctx, cfg, opt)
	if err != nil {
		return err
	}
	rep.WriteText(c.OutOrStdout())
	if a.figure != "" {
		if err := report.WriteFile(a.figure, rep.Figure()); err != nil {
			return err
		}
		fmt.Fprintf(c.OutOrStdout(), "figure %s\n", a.figure)
	}
	if a.testOut != "" {
		if err := rep.WritePromtoolTest(ctx, a.testOut); err != nil {
			return err
		}
		fmt.Fprintf(c.OutOrStdout(), "promtool test file %s (passes: promtool test rules %s)\n", a.testOut, a.testOut)
	}
	return checkAlertExpects(c.OutOrStdout(), rep, checks)
}

func parseAlertExpects(texts []string) ([]alerts.Expect, error) {
	var out []alerts.Expect
	for _, t := range texts {
		e, err := alerts.ParseExpect(t)
		if err != nil {
			return nil, usageError{fmt.Errorf("--expect: %w", err)}
		}
		out = append(out, e)
	}
	return out, nil
}

// checkAlertExpects prints each expectation's result and returns
// errExpectation if one failed.
func checkAlertExpects(w io.Writer, rep *alerts.Report, checks []alerts.Expect) error {
	failed := 0
	for _, e := range checks {
		r := e.Check(rep)
		fmt.Fprintln(w, r.String())
		if !r.OK {
			failed++
		}
	}
	if failed > 0 {
		return fmt.Errorf("%w: %d of %d", errExpectation, failed, len(checks))
	}
	return nil
}

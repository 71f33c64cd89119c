package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/ressim/ressim/sim/alerts"
	"github.com/ressim/ressim/sim/report"
	"github.com/ressim/ressim/sim/run"
)

func newAlertsCmd() *cobra.Command {
	var (
		rules, testOut string
		seed           uint64
		every          time.Duration
		keep, figure   string
		rf             replicaFlags
	)
	c := &cobra.Command{
		Use:   "alerts FILE --rules RULES.yml",
		Short: "Evaluate Prometheus alerting rules on a simulated incident",
		Long: `Alerts runs the experiment in FILE, and the same run without its faults, and
evaluates the Prometheus alerting and recording rules in RULES.yml on both
with Prometheus' own rule engine (promtool test rules; install Debian's
prometheus package). The run's time series are those of 'ressim run
--openmetrics' (docs/observability.md).

For every fault and every alert it prints when the alert went pending and
firing relative to the fault's start (time to detect), and whether and when
it resolved after the fault's end; alerts firing in the fault-free run are
false alarms.

--promtool-test OUT.yml writes a promtool unit-test file that expects
exactly the alerts seen in the run at every change of state, checked to pass;
it runs in a team's own CI with 'promtool test rules OUT.yml', without ressim.

--variant and --replication evaluate one run of 'ressim compare' instead of
the base, exactly as 'ressim run' re-runs it.`,
		Example: `  ressim alerts experiments/alerts/degraded-200.toml --rules experiments/alerts/degraded-200.rules.yml
  ressim alerts experiments/metastable-retry-storm.toml --rules experiments/alerts/retry-storm.rules.yml --variant retry-budget --replication 0
  ressim alerts experiments/breaker-fallback.toml --rules my-rules.yml --eval-interval 5s --promtool-test fallback.test.yml`,
		Args:              exactArgs(1),
		ValidArgsFunction: tomlFiles,
		RunE: func(c *cobra.Command, args []string) error {
			if rules == "" {
				return usageError{fmt.Errorf("--rules is required")}
			}
			if _, err := os.Stat(rules); err != nil {
				return usageError{fmt.Errorf("--rules: %w", err)}
			}
			exp, err := load(args[0])
			if err != nil {
				return err
			}
			cfg := exp.Model
			if c.Flags().Changed("seed") {
				cfg.Seed = seed
			}
			replica, err := rf.replica(c)
			if err != nil {
				return err
			}
			if replica != nil {
				if cfg, err = run.ReplicaModel(exp, *replica, cfg.Seed); err != nil {
					return err
				}
			}
			if keep != "" {
				if err := os.MkdirAll(keep, 0o755); err != nil {
					return err
				}
			}
			ctx := context.Background()
			opt := alerts.Options{Rules: rules, EvalInterval: every, Dir: keep}
			rep, err := alerts.Evaluate(ctx, cfg, opt)
			if err != nil {
				return err
			}
			rep.WriteText(c.OutOrStdout())
			if figure != "" {
				if err := report.WriteFile(figure, rep.Figure()); err != nil {
					return err
				}
				fmt.Fprintf(c.OutOrStdout(), "figure %s\n", figure)
			}
			if testOut == "" {
				return nil
			}
			if err := rep.WritePromtoolTest(ctx, testOut); err != nil {
				return err
			}
			fmt.Fprintf(c.OutOrStdout(), "promtool test file %s (passes: promtool test rules %s)\n", testOut, testOut)
			return nil
		},
	}
	c.Flags().StringVar(&rules, "rules", "", "Prometheus rules file (required)")
	c.Flags().Uint64Var(&seed, "seed", 0, "override the experiment's seed")
	c.Flags().DurationVar(&every, "eval-interval", alerts.DefaultEvalInterval, "rule evaluation interval (a multiple of the experiment's interval)")
	c.Flags().StringVar(&testOut, "promtool-test", "", "write a promtool unit-test file expecting the alerts seen in the run")
	rf.register(c)
	c.Flags().StringVar(&figure, "figure", "", "draw the users' goodput and every alert's pending and firing spans to this file (.png or .svg)")
	c.Flags().StringVar(&keep, "keep", "", "keep the generated promtool test files in this directory")
	return c
}

package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/ressim/ressim/sim/run"
)

func newValidateCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "validate FILE",
		Short: "Check an experiment file without running it",
		Long: `Validate reads FILE as ressim would before a run and reports every problem
with its file, line, column and key: every problem of every section at
once, including those of each variant and of each cell of a sweep. FILE
"-" reads standard input (named <stdin> in messages). At most 1 MiB is
read from any file, pipe or device. It exits with status 2 when the file
is invalid or cannot be read, 0 when it is valid.`,
		Example:           "  ressim validate experiments/mm10.toml\n  cat mm10.toml | ressim validate -",
		Args:              exactArgs(1),
		ValidArgsFunction: tomlFiles,
		RunE: func(c *cobra.Command, args []string) error {
			exp, err := load(args[0])
			if err != nil {
				return err
			}
			fmt.Fprintf(c.OutOrStdout(), "%s: valid (experiment %q: %d services, %d clients, %v simulated)\n",
				exp.File, exp.Name, len(exp.Model.Services), len(exp.Model.Clients), exp.Model.Duration)
			fmt.Fprintln(c.OutOrStdout(), run.CostReport(exp)) // the cost model, docs/security.md "Budgets"
			return nil
		},
	}
}

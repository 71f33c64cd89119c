package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/ressim/ressim/internal/input"

	"github.com/spf13/cobra"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/importer"
	"github.com/ressim/ressim/sim/lint"
	"github.com/ressim/ressim/sim/run/runner"
)

// exitLint is the status of a lint whose findings reach --fail-on.
const exitLint = 6

// errLintFindings marks findings at or above --fail-on.
var errLintFindings = errors.New("lint findings at or above the --fail-on severity")

// lintExit maps lint's error to its exit status; ok is false for any
// other error. exitCode consults it first.
func lintExit(err error) (int, bool) {
	if errors.Is(err, errLintFindings) {
		return exitLint, true
	}
	return 0, false
}

func newLintCmd() *cobra.Command {
	var format, failOn, variant, kind string
	var simulate bool
	var bf budgetFlags
	var target string
	c := &cobra.Command{
		Use:   "lint FILE",
		Short: "Check an experiment against the resilience review checklist",
		Long: `Lint checks FILE's services, calls, clients and probes against the review
checklist (section 12) and the typical mistakes (section 11) of
«Устойчивость: circuit breaker, retry, bulkhead, backpressure, деградация»,
without running it: every rule is in docs/lint.md. Each finding gives the
file, line and column of the key at fault, the rule ID and the variant. The
worst-case retry amplification of every call path is listed. By default the
base and every [[variant]] are checked; --variant checks one.

A finding is silenced by a comment on the line before the key (or on it):
  # ressim:lint-ignore RS006 because the budget lives in the mesh
A comment without "because ..." silences nothing and is itself reported.

With --simulate, the standard stress scenarios (a dependency slows x10, a
latency spike, an instance crash, a surge to 150 %) are run against each
variant (deterministic, a few seconds) and their verdicts listed with the
findings; each retry-amplification finding shows the amplification measured.

With --import KIND, FILE is a configuration (envoy, grpc, istio, resilience4j, aws): it is
imported as by ressim import, and findings point at the source's lines.

Exit status: 0 when no finding reaches --fail-on, 6 when one does, 2 when
FILE is invalid.`,
		Example:           "  ressim lint experiments/retry-amplification.toml\n  ressim lint --format sarif --fail-on warning exp.toml > lint.sarif",
		Args:              exactArgs(1),
		ValidArgsFunction: tomlFiles,
		RunE: func(c *cobra.Command, args []string) error {
			b, err := bf.budget()
			if err != nil {
				return err
			}
			ctx, stop := signalContext(c.Context(), c.ErrOrStderr())
			defer stop()
			return runLint(ctx, c.OutOrStdout(), c.ErrOrStderr(), args[0], lintOptions{format, failOn, variant, kind, simulate, target, b})
		},
	}
	c.Flags().StringVar(&format, "format", "text", "output format: text, json or sarif")
	c.Flags().StringVar(&failOn, "fail-on", "error", "exit 6 on findings of this severity or worse: error, warning, note or never")
	c.Flags().StringVar(&variant, "variant", lint.AllVariants, "variant to check: base, a [[variant]] name, or * for all")
	c.Flags().BoolVar(&simulate, "simulate", false, "also run the standard stress scenarios and report their verdicts and measured amplification")
	c.Flags().StringVar(&kind, "import", "", "FILE is a configuration of this kind (envoy, grpc, istio, resilience4j, aws): import it, lint the result, report at the source's lines")
	c.Flags().StringVar(&target, "target", "", "with --simulate: the service the scenarios hit (default: each variant's most amplified dependency)")
	bf.registerWith(c, lintBudget())
	return c
}

// lintBudget is lint --simulate's default budget: 2 x 10^8 events (ten
// scenario runs at their cap, lint.SimMaxEvents; about half a minute
// here) and ten minutes, since the scenarios are meant as a quick check:
// a file whose variants need more is refused, naming --max-events.
func lintBudget() runner.Budget {
	b := runner.DefaultBudget
	b.MaxEvents, b.Timeout = 10*lint.SimMaxEvents, 10*time.Minute
	return b
}

// lintOptions are lint's flags.
type lintOptions struct {
	format, failOn, variant, kind string
	simulate                      bool
	// target, with simulate, is the service the scenarios hit ("": each
	// variant's most amplified dependency).
	target string
	// budget bounds --simulate's runs, all together.
	budget runner.Budget
}

func runLint(ctx context.Context, w, stderr io.Writer, path string, o lintOptions) error {
	format, failOn, variant := o.format, o.failOn, o.variant
	write, ok := map[string]func(io.Writer, *lint.Report) error{
		"text": lint.WriteText, "json": lint.WriteJSON, "sarif": lint.WriteSARIF}[format]
	if !ok {
		return usageError{fmt.Errorf("--format %q: want text, json or sarif", format)}
	}
	var threshold lint.Severity
	switch failOn {
	case "error", "warning", "note":
		threshold = lint.Severity(failOn)
	case "never":
	default:
		return usageError{fmt.Errorf("--fail-on %q: want error, warning, note or never", failOn)}
	}
	if o.target != "" && !o.simulate {
		return usageError{errors.New("--target goes with --simulate")}
	}
	exp, src, err := lintInput(stderr, path, o.kind)
	if err != nil {
		return err
	}
	rep, err := lint.Check(exp, src, variant)
	if err != nil {
		return usageError{err}
	}
	if o.simulate {
		if err := lint.SimulateTarget(ctx, exp, rep, variant, o.target, o.budget); err != nil {
			if errors.Is(err, lint.ErrUnknownTarget) {
				return usageError{fmt.Errorf("lint: %w", err)}
			}
			return fmt.Errorf("lint: %w", err)
		}
	}
	if o.kind != "" {
		lint.MapToSources(rep, src)
	}
	lint.Group(rep)
	if err := write(w, rep); err != nil {
		return fmt.Errorf("lint: write report: %w", err)
	}
	if worst := rep.Worst(); threshold != "" && worst != "" && worst.AtLeast(threshold) {
		return errLintFindings
	}
	return nil
}

// lintInput returns the experiment to lint and its text: FILE itself, or
// with kind set the experiment imported from it (its warnings go to
// stderr), named "FILE (imported)".
func lintInput(stderr io.Writer, path, kind string) (*experiment.Experiment, []byte, error) {
	if kind == "" {
		return loadWithSource(path)
	}
	data, err := readBounded(path)
	if err != nil {
		return nil, nil, usageError{fmt.Errorf("lint: %w", err)}
	}
	res, err := importer.Import(kind, []importer.Source{{Name: path, Data: data}})
	if err != nil {
		return nil, nil, usageError{err}
	}
	importWarnings(stderr, res.Warnings)
	exp, err := experiment.Parse(path+lint.ImportedSuffix, []byte(res.TOML))
	if err != nil {
		return nil, nil, fmt.Errorf("lint: the imported experiment is invalid (a bug in import): %w", err)
	}
	return exp, []byte(res.TOML), nil
}

// loadWithSource loads an experiment and returns its bytes too, for the
// lint-ignore comments; at most experiment.MaxFileSize+1 bytes are read.
func loadWithSource(path string) (*experiment.Experiment, []byte, error) {
	if path == experiment.Stdin {
		data, err := io.ReadAll(io.LimitReader(os.Stdin, experiment.MaxFileSize+1))
		if err != nil {
			return nil, nil, fmt.Errorf("lint: read stdin: %w", err)
		}
		exp, err := experiment.Read(experiment.StdinName, bytes.NewReader(data))
		return exp, data, err
	}
	exp, err := load(path)
	if err != nil {
		return nil, nil, err
	}
	data, err := input.ReadFile(path, experiment.MaxFileSize)
	if err != nil {
		return nil, nil, usageError{fmt.Errorf("lint: %w", err)}
	}
	return exp, data, nil
}

package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/ressim/ressim/internal/input"

	"github.com/spf13/cobra"

	"github.com/ressim/ressim/internal/termsafe"
	"github.com/ressim/ressim/internal/version"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/runner"
)

// Exit codes (documented in doc.go, README.md and docs/security.md).
const (
	exitOK       = 0
	exitFailure  = 1 // a run failed (I/O, an unusable output folder) or was interrupted
	exitInvalid  = 2 // bad experiment file or command line
	exitExpect   = 3 // an [[expect]] failed
	exitBudget   = 4 // a budget refused or stopped the command
	exitInternal = 5 // a bug: a recovered panic
)

// errExpectation marks a failed [[expect]], which exits with exitExpect.
var errExpectation = errors.New("an expectation failed")

// usageError marks command-line mistakes, which exit with exitInvalid.
type usageError struct{ error }

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root, _ := newRootProfiled(stdout, stderr)
	return root
}

// newRootProfiled is newRoot with the --cpuprofile flag's state, which
// execute stops after the command, whatever its outcome.
func newRootProfiled(stdout, stderr io.Writer) (*cobra.Command, *cpuProfile) {
	prof := &cpuProfile{}
	root := &cobra.Command{
		Use:   "ressim",
		Short: "Deterministic simulator of cascading and metastable failure",
		Long: `ressim simulates request-serving systems: services with worker pools and
queues, clients that time out and retry, and the resilience policies that
guard every call. Experiments are TOML files; the same file and seed always
give the same results.`,
		Version:       version.Build().String(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError{fmt.Errorf("%w\nrun '%s --help' for usage", err, c.CommandPath())}
	})
	root.AddCommand(newRunCmd(), newCompareCmd(), newSweepCmd(), newValidateCmd(), newMergeCmd(), newServeCmd(), newVersionCmd(), newAlertsCmd())
	root.AddCommand(newLintCmd(), newImportCmd(), newFitCmd(), newMarginCmd(), newHysteresisCmd(), newCtmcCmd(), newRareCmd())
	strictCompletion(root)
	prof.addFlag(root)
	root.PersistentPreRunE = func(*cobra.Command, []string) error { return prof.start() }
	return root, prof
}

// execute runs the command line args and returns the exit status. A
// panic anywhere below is a bug: it is reported as one line asking for a
// bug report (the stack too with RESSIM_DEBUG=1) and exits exitInternal.
func execute(args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			code = internalError(stderr, r)
		}
	}()
	root, prof := newRootProfiled(stdout, stderr)
	root.SetArgs(args)
	err := root.Execute()
	if perr := prof.stop(); err == nil {
		err = perr
	}
	if err == nil {
		return exitOK
	}
	// Messages quote file names, keys and values from the user's files:
	// printed with their control characters escaped, lines kept.
	fmt.Fprintln(stderr, "ressim:", termsafe.Text(err.Error()))
	return exitCode(err)
}

// exitCode classifies a command's error.
func exitCode(err error) int {
	var ue usageError
	if code, ok := lintExit(err); ok {
		return code
	}
	switch {
	case errors.Is(err, runner.ErrBudget):
		return exitBudget
	case errors.Is(err, experiment.ErrInvalid), errors.Is(err, run.ErrNoSuchRun), errors.As(err, &ue), input.Refused(err):
		return exitInvalid
	case errors.Is(err, errExpectation):
		return exitExpect
	}
	// cobra reports unknown commands and wrong argument counts as plain
	// errors before any command runs.
	if isCobraUsage(err) {
		return exitInvalid
	}
	return exitFailure
}

func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "accepts ", "requires at least", "unknown flag", "unknown shorthand"} {
		if len(msg) >= len(p) && contains(msg, p) {
			return true
		}
	}
	return false
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print ressim's version and the commit it was built from",
		Long: `Prints ressim's version (the one written into summary.json and partial
files), then the build's stamp: the commit, whether the tree had uncommitted
changes, the commit's time, the module version and the Go toolchain. The
stamp comes from the Go toolchain when built from a git checkout (not a git
worktree: Go does not stamp those), or from -ldflags -X for release builds;
see docs/scale-out.md, "Versions".`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			fmt.Fprintln(c.OutOrStdout(), version.Build())
			return nil
		},
	}
}

// exactArgs is cobra.ExactArgs with errors marked as usage errors.
func exactArgs(n int) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		if err := cobra.ExactArgs(n)(c, args); err != nil {
			return usageError{fmt.Errorf("%w\nrun '%s --help' for usage", err, c.CommandPath())}
		}
		return nil
	}
}

// load reads an experiment file ("-" for standard input, bounded like a
// file: see experiment.Load); a file that cannot be read is the user's
// input error, like an invalid one.
func load(path string) (*experiment.Experiment, error) {
	exp, err := experiment.Load(path)
	if err != nil && !errors.Is(err, experiment.ErrInvalid) {
		return nil, usageError{err}
	}
	return exp, err
}

// reportExpectations prints each expectation's result and returns
// errExpectation if one failed.
func reportExpectations(w io.Writer, results []run.ExpectResult) error {
	failed := 0
	for _, r := range results {
		fmt.Fprintln(w, r.String())
		if !r.OK {
			failed++
		}
	}
	if failed > 0 {
		return fmt.Errorf("%w: %d of %d", errExpectation, failed, len(results))
	}
	return nil
}

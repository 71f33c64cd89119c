package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/ressim/ressim/internal/termsafe"
)

// debugEnv, set to 1, prints the stack of an internal error.
const debugEnv = "RESSIM_DEBUG"

// internalError reports a recovered panic as one line and a request to
// file a bug, never a stack trace unless RESSIM_DEBUG=1.
func internalError(stderr io.Writer, r any) int {
	fmt.Fprintf(stderr, "ressim: internal error: %v\n", termsafe.Line(oneLine(fmt.Sprint(r))))
	fmt.Fprintf(stderr, "ressim: this is a bug; please report it with the command line and the experiment file (set %s=1 for details)\n", debugEnv)
	if os.Getenv(debugEnv) == "1" {
		stderr.Write(debug.Stack())
	}
	return exitInternal
}

func oneLine(s string) string {
	for i, r := range s {
		if r == '\n' {
			return s[:i] + " ..."
		}
	}
	return s
}

// strictCompletion makes "ressim completion SHELL" with an unsupported
// shell a command-line error (cobra would print the help and exit 0).
func strictCompletion(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		c.Args = cobra.ArbitraryArgs
		c.RunE = func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError{fmt.Errorf("completion needs a shell: bash, zsh, fish or powershell")}
			}
			return usageError{fmt.Errorf("unsupported shell %q: use bash, zsh, fish or powershell", args[0])}
		}
	}
}

// Command ressim runs experiments with ressim, the deterministic simulator
// of cascading and metastable failure.
//
// Usage:
//
//	ressim run FILE [-o DIR] [--seed N] [--no-plots]
//	ressim run FILE --variant V --replication K [--cell X[,Y]]
//	ressim compare FILE [-j N] [--replications N] [--series first|all|none]
//	ressim sweep FILE [-j N]
//	ressim validate FILE
//	ressim version
//	ressim completion bash|zsh|fish|powershell
//
// Exit status: 0 on success, 1 when a run fails, 2 when the experiment file
// or the command line is invalid.
package main

import (
	"os"
)

func main() {
	os.Exit(execute(os.Args[1:], os.Stdout, os.Stderr))
}

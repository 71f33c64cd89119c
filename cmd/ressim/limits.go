package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run/runner"
)

// Command-line bounds, the same as the file's where the file has one.
const (
	maxJobs = 256
	maxSeed = 1 << 62 // [experiment].seed's bound
)

// budgetFlags bound a command's total cost (runner.Budget).
type budgetFlags struct {
	maxEvents float64
	maxMemory string
	maxOutput string
	timeout   time.Duration
}

func (f *budgetFlags) register(c *cobra.Command) { f.registerWith(c, runner.DefaultBudget) }

// registerWith registers the flags with d's events and timeout as their
// defaults: a command meant to finish in seconds (lint --simulate) has
// smaller ones.
func (f *budgetFlags) registerWith(c *cobra.Command, d runner.Budget) {
	c.Flags().Float64Var(&f.maxEvents, "max-events", d.MaxEvents, "refuse or stop the command beyond this many simulated events, all runs together (0: no limit)")
	c.Flags().StringVar(&f.maxMemory, "max-memory", "auto", "stop the command when the heap exceeds this (e.g. 512MiB, 8GiB; 0: no limit; auto: 4GiB, or half the memory or address space the process may have if that is less)")
	c.Flags().DurationVar(&f.timeout, "timeout", d.Timeout, "stop the command after this wall time (e.g. 30m; 0: no limit); finished runs are kept")
	c.Flags().StringVar(&f.maxOutput, "max-output", "1GiB", "refuse the command if its data files (time series, events, OpenMetrics) would exceed this (e.g. 64MiB; 0: no limit)")
}

// budget validates the flags and returns the budget.
func (f *budgetFlags) budget() (runner.Budget, error) {
	if f.maxEvents < 0 || f.maxEvents != f.maxEvents {
		return runner.Budget{}, usageError{fmt.Errorf("--max-events must be >= 0, got %v", f.maxEvents)}
	}
	if f.timeout < 0 {
		return runner.Budget{}, usageError{fmt.Errorf("--timeout must be >= 0, got %v", f.timeout)}
	}
	mem, err := defaultMemory(memoryCeiling()), error(nil)
	if f.maxMemory != "auto" {
		mem, err = parseBytes(f.maxMemory)
	}
	if err != nil {
		return runner.Budget{}, usageError{fmt.Errorf("--max-memory: %w", err)}
	}
	out, err := parseBytes(f.maxOutput)
	if err != nil {
		return runner.Budget{}, usageError{fmt.Errorf("--max-output: %w", err)}
	}
	return runner.Budget{MaxEvents: f.maxEvents, MaxMemory: mem, Timeout: f.timeout, MaxOutput: float64(out)}, nil
}

// defaultMemory is the memory budget of --max-memory auto: 4 GiB
// (runner.DefaultBudget), or half of ceiling when that is less, so that the
// budget stops a run cleanly (exit status 4) before the operating system
// or the Go runtime kills it. The other half is for what the budget does
// not count: the garbage collector's headroom (the heap may reach about
// twice its live size between collections), stacks, the binary, and the
// figures drawn after the runs.
func defaultMemory(ceiling uint64) uint64 {
	mem := runner.DefaultBudget.MaxMemory
	if ceiling > 0 && ceiling/2 < mem {
		mem = ceiling / 2
	}
	return mem
}

// parseBytes reads "0", "123", "512KiB", "64MiB", "4GiB", "1TiB" (also
// KB/MB/GB/TB as powers of 1000).
func parseBytes(s string) (uint64, error) {
	t := strings.TrimSpace(s)
	units := []struct {
		suffix string
		mult   float64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
		{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"B", 1}}
	mult := 1.0
	for _, u := range units {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mult
			break
		}
	}
	x, err := strconv.ParseFloat(t, 64)
	if err != nil || x < 0 || x*mult >= 1<<63 || x != x {
		return 0, fmt.Errorf("expected a size such as 512MiB or 4GiB, got %q", s)
	}
	return uint64(x * mult), nil
}

// checkCounts rejects counts the file could not hold either.
func checkCounts(c *cobra.Command, jobs, reps int, seed uint64) error {
	fl := c.Flags()
	if fl.Changed("jobs") && (jobs < 1 || jobs > maxJobs) {
		return usageError{fmt.Errorf("--jobs must be in [1, %d], got %d", maxJobs, jobs)}
	}
	if fl.Changed("replications") && (reps < 1 || reps > experiment.MaxReplications) {
		return usageError{fmt.Errorf("--replications must be in [1, %d], got %d", experiment.MaxReplications, reps)}
	}
	if fl.Changed("seed") && seed > maxSeed {
		return usageError{fmt.Errorf("--seed must be in [0, 2^62], got %d", seed)}
	}
	return nil
}

// checkRunFlags rejects ressim run's out-of-range numbers.
func checkRunFlags(c *cobra.Command, trace int, seed uint64) error {
	if trace < 0 {
		return usageError{fmt.Errorf("--trace must be >= 0 (0: no trace), got %d", trace)}
	}
	if c.Flags().Changed("seed") && seed > maxSeed {
		return usageError{fmt.Errorf("--seed must be in [0, 2^62], got %d", seed)}
	}
	return nil
}

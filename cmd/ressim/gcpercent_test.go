package main

import (
	"math"
	"runtime/debug"
	"testing"

	"github.com/ressim/ressim/sim/run/runner"
)

// TestApplyMemoryLimitGCPercent: under a memory budget the collector runs
// with GOGC 200, unless the environment sets GOGC; without a budget it is
// left alone. The process's settings are restored afterwards.
func TestApplyMemoryLimitGCPercent(t *testing.T) {
	prevPercent := debug.SetGCPercent(100)
	prevLimit := debug.SetMemoryLimit(-1)
	t.Cleanup(func() {
		debug.SetGCPercent(prevPercent)
		debug.SetMemoryLimit(prevLimit)
	})
	current := func() int {
		p := debug.SetGCPercent(100)
		debug.SetGCPercent(p)
		return p
	}
	for _, tc := range []struct {
		name   string
		gogc   string
		budget uint64
		want   int
	}{
		{"budget", "", 1 << 30, gcPercent},
		{"GOGC set", "50", 1 << 30, 100},
		{"no budget", "", 0, 100},
		{"unbounded", "", math.MaxUint64, 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("GOGC", tc.gogc)
			debug.SetGCPercent(100)
			applyMemoryLimit(runner.Budget{MaxMemory: tc.budget})
			if got := current(); got != tc.want {
				t.Errorf("GOGC = %d, want %d", got, tc.want)
			}
		})
	}
}

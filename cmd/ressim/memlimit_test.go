package main

import "testing"

// TestDefaultMemory: --max-memory auto is 4 GiB, or half of what the
// process may have when that is less (an address-space limit, a small
// machine), so the budget stops a run before the system kills it.
func TestDefaultMemory(t *testing.T) {
	for _, tt := range []struct{ ceiling, want uint64 }{
		{0, 4 << 30},        // nothing known
		{4 << 30, 2 << 30},  // ulimit -v 4 GiB
		{8 << 30, 4 << 30},  // exactly twice the default
		{64 << 30, 4 << 30}, // a big machine keeps the default
		{1 << 30, 512 << 20},
	} {
		if got := defaultMemory(tt.ceiling); got != tt.want {
			t.Errorf("defaultMemory(%d) = %d, want %d", tt.ceiling, got, tt.want)
		}
	}
}

package playground

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestTuneGC: TuneGC sets the page's collector to PageGCPercent and
// PageMemoryLimit (read back by setting them again, which returns the
// previous values; the test binary's defaults are restored).
func TestTuneGC(t *testing.T) {
	percent := debug.SetGCPercent(100)
	limit := debug.SetMemoryLimit(math.MaxInt64)
	defer func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}()
	TuneGC()
	if got := debug.SetGCPercent(100); got != PageGCPercent {
		t.Errorf("GOGC after TuneGC = %d, want %d", got, PageGCPercent)
	}
	if got := debug.SetMemoryLimit(math.MaxInt64); got != PageMemoryLimit {
		t.Errorf("memory limit after TuneGC = %d, want %d", got, PageMemoryLimit)
	}
	if PageMemoryLimit <= PageBudget().MaxMemory {
		t.Errorf("PageMemoryLimit %d is not above the page's memory budget %d", PageMemoryLimit, PageBudget().MaxMemory)
	}
}

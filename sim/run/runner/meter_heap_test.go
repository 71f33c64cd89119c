package runner

import (
	"context"
	"errors"
	"runtime"
	"runtime/debug"
	"testing"
)

// heldForTest keeps the test's live allocations reachable.
var heldForTest [][]byte

// TestMeterCountsLiveHeap: garbage over the memory budget does not stop
// a run (the meter collects it before it judges), live memory over it
// does. The collector is off while the test allocates, so the garbage is
// there when the meter reads the heap.
func TestMeterCountsLiveHeap(t *testing.T) {
	runtime.GC()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	limit := heapInUse() + 64<<20
	m := NewMeter(context.Background(), Budget{MaxMemory: limit})
	for range 128 {
		_ = append([]byte(nil), make([]byte, 1<<20)...) // 128 MiB of garbage
	}
	if heapInUse() <= limit {
		t.Skip("the garbage did not reach the heap (the compiler kept it off it)")
	}
	if err := m.Check(1); err != nil {
		t.Errorf("garbage over the budget stopped the run: %v", err)
	}
	for range 128 {
		heldForTest = append(heldForTest, make([]byte, 1<<20))
	}
	defer func() { heldForTest = nil }()
	var be *BudgetError
	if err := m.Check(1); !errors.As(err, &be) || be.Resource != "memory" {
		t.Errorf("128 MiB held over a budget 64 MiB above the start: %v, want the memory budget", err)
	}
}

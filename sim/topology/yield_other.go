//go:build !wasm

package topology

// yields: natively the collector marks on other threads and preempts
// goroutines, so a run need not yield (yield_wasm.go).
const yields = false

// yield does nothing natively (yield_wasm.go).
func yield() {}

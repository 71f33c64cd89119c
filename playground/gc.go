package playground

import "runtime/debug"

// PageGCPercent is the garbage collector's GOGC in the page's simulator
// (playground/wasm). WebAssembly runs Go on one thread: a collection's
// marking cannot run beside the simulation, so it is spread over it, and
// while it lasts every pointer the simulation writes goes through the
// write barrier's slow path. With Go's default of 100, the retry storm's
// live overviews (each a snapshot of the run) start collections that
// cost more than the simulation itself: in node, the storm with its live
// figures took 1.9-2.7 s at GOGC 100 and 1.0-1.5 s at 400 (issue 31,
// docs/performance.md). The heap of a page's run is a few megabytes, so
// five times it is still small; PageMemoryLimit bounds the rest.
const PageGCPercent = 400

// PageMemoryLimit is the page simulator's soft memory limit (bytes): past
// it the collector runs as often as it must, whatever PageGCPercent says,
// so a large run's heap does not grow five-fold. It is PageBudget's
// MaxMemory (1 GiB of live heap) and half as much again.
const PageMemoryLimit = 3 << 29

// TuneGC sets the collector for the page's simulator: PageGCPercent and
// PageMemoryLimit. playground/wasm calls it once at start; it changes the
// whole process's collector, so the CLI and tests do not call it.
func TuneGC() {
	debug.SetGCPercent(PageGCPercent)
	debug.SetMemoryLimit(PageMemoryLimit)
}

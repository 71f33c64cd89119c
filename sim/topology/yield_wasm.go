package topology

import "runtime"

// yields reports that a run yields the processor every GuardEvery events
// (yield), which it does in WebAssembly only.
const yields = true

// yield lets the Go scheduler run its other goroutines, the collector's
// mark worker among them. In WebAssembly Go runs on one thread and does
// not preempt: a collection that starts during a run (on an allocation
// that crosses the heap's goal) stays in its mark phase, its write
// barrier on for every pointer the model stores, until the run returns.
// In the page's build of the retry storm the barrier's buffer and its
// object lookups took about a fifth of the time (node's profiler:
// runtime.findObject, wbBufFlush, tryDeferToSpanScan); yielding every
// GuardEvery events lets the worker finish the cycle within them. It
// changes no result: the run is the same sequence of events.
func yield() { runtime.Gosched() }

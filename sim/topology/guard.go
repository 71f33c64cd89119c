package topology

// GuardEvery is how many events a run fires between two calls of its
// Guard: often enough that a run overshoots a budget by a negligible
// amount, rarely enough that the check costs nothing measurable.
const GuardEvery = 1 << 14

// Guard bounds a run from outside the model: its total work, the memory
// in use, the wall time, a cancellation. The model calls Check every
// GuardEvery events with the number of events fired since the previous
// call; a non-nil error stops the run after the current event and Run
// returns it (wrapped). A Guard may be shared by runs on several
// goroutines, so its Check must be safe for concurrent use. Whatever a
// Guard reads (even the wall clock) can only stop a run: it never changes
// the results of a run that finishes.
type Guard interface {
	Check(events uint64) error
}

// SetGuard makes Run consult g every GuardEvery events; nil removes it.
// Call it before Run.
func (m *Model) SetGuard(g Guard) { m.guard = g }

// installGuard hooks the guard into the engine, and in WebAssembly the
// run's yield to the Go scheduler (yield_wasm.go).
func (m *Model) installGuard() {
	if m.guard == nil {
		if yields {
			m.sim.Every(GuardEvery, yield)
		}
		return
	}
	m.sim.Every(GuardEvery, func() {
		yield()
		if err := m.guard.Check(GuardEvery); err != nil && m.guardErr == nil {
			m.guardErr = err
			m.sim.Stop()
		}
	})
}

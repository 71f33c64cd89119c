package engine

// The bits of Sim.halt.
const (
	haltStop uint8 = 1 << iota // Stop was called
	haltThen                   // Then took an event that has not fired
)

// Then schedules h.Handle(Now(), arg) as the very next event, if nothing
// else is pending for the current instant, and reports whether it did; if
// something is, it does nothing and returns false, and the caller
// schedules the event with At or After as it would have.
//
// An event Then takes fires exactly where At(Now(), h, arg) would fire it:
// it takes the next sequence number as At would, and with nothing else
// pending for the instant it is the earliest pending event; whatever is
// scheduled after it, for the same instant or later, fires after it. The
// difference is its cost: it takes no record, no queue slot and no
// EventID, so it cannot be cancelled. Use it for a follow-up that nothing
// will cancel before it fires, such as an answer or an immediate retry
// whose caller returns to the event loop at once: in the retry storm these
// are half the events, and each cost a record, a queue slot and an
// EventID that no one used (docs/performance.md).
//
// Then refuses while the simulation is stopped (a handler or the Every
// hook called Stop): the caller may act between Run and the next, and an
// event waiting across that gap must be one it can cancel. If a handler
// stops the simulation after Then took an event, that event fires first
// when the run resumes, as the queued one would have. It also refuses
// while the entry of the event being fired is still the heap's root
// (Sim.hole), where the heap's least live entry is not at hand: a handler
// fired from the heap has usually scheduled its follow-up (the next
// arrival, the next step) by the time it sends. Kept this small, Then
// inlines into its callers (-29 M instructions in the retry storm).
func (s *Sim) Then(h Handler, arg any) bool {
	if s.halt != 0 || s.hole || s.nowq.n > 0 || h == nil || len(s.heap) > 0 && s.heap[0].at <= s.now {
		return false
	}
	s.seq++ // the number At would have given it, so that later events keep theirs
	s.halt = haltThen
	s.thenH, s.thenArg = h, arg
	s.pending++
	return true
}

// CancelThen cancels the event Then took, if it has not fired, and
// reports whether it had not. At most one such event is pending at a
// time, so a caller that knows its event was taken (Then returned true)
// and has not fired knows which one this cancels.
func (s *Sim) CancelThen() bool {
	if s.halt&haltThen == 0 {
		return false
	}
	s.halt &^= haltThen
	s.pending--
	return true
}

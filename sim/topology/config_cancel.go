package topology

import "slices"

// Cancellation is what a service's handler does once the attempt it
// serves is cancelled: its caller stopped waiting (timed out, or its own
// owner gave up), or, with Config.PropagateDeadlines, the propagated
// deadline passed. It models how much of Go's context.Context (or a gRPC
// server's deadline) the handler code checks. See docs/model.md,
// "Cancellation of work in flight".
type Cancellation uint8

const (
	// CancelNever (the default) is a handler that ignores cancellation:
	// it runs to its end and its answer is discarded; a queued request
	// whose caller is gone still takes a worker (unless its propagated
	// deadline has passed: then it is dropped at dequeue, as always).
	CancelNever Cancellation = iota
	// CancelAtStep is a handler that checks ctx.Err() between steps: it
	// notices at its next step boundary (before the next work or call
	// step, and when one of its outstanding calls returns), stops, frees
	// its worker and sends nothing back. A queued request whose caller is
	// gone is dropped when it is dequeued, without taking a worker.
	CancelAtStep
	// CancelContinuous is a handler whose every blocking operation
	// selects on ctx.Done(): it stops at the instant of cancellation, a
	// running work step is cut short and the worker freed at once. A
	// queued request whose caller is gone is removed from a FIFO queue at
	// once (from a lifo queue when it is dequeued).
	CancelContinuous
)

var cancellationNames = [...]string{"never", "at_step", "continuous"}

// String returns the mode's name as written in experiment files.
func (c Cancellation) String() string {
	if int(c) < len(cancellationNames) {
		return cancellationNames[c]
	}
	return "unknown"
}

// CancellationNames lists the cancellation modes' names, in order.
func CancellationNames() []string { return slices.Clone(cancellationNames[:]) }

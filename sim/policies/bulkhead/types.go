package bulkhead

import (
	"time"

	"github.com/ressim/ressim/sim/policies"
)

// Decision is the result of Acquire.
type Decision uint8

const (
	// Granted: the caller holds a slot from now on and must Release it.
	Granted Decision = iota
	// Queued: the caller waits; it must schedule Expire at WaitUntil, and
	// it holds a slot once a Release returns its Ticket.
	Queued
	// Full: no slot and no room (or no time) to wait: fail fast.
	Full
	// DeadlineExceeded: the caller's deadline had already passed.
	DeadlineExceeded
)

// String returns "granted", "queued", "full" or "deadline_exceeded".
func (d Decision) String() string {
	switch d {
	case Granted:
		return "granted"
	case Queued:
		return "queued"
	case Full:
		return "full"
	case DeadlineExceeded:
		return "deadline_exceeded"
	}
	return "unknown"
}

// Ticket identifies one queued waiter. Tickets are numbered from 1 in
// queueing order; the zero Ticket is never issued.
type Ticket uint64

// Acquisition is what Acquire returns.
type Acquisition struct {
	// Decision says whether the caller got a slot, waits or is refused.
	Decision Decision
	// Ticket identifies the waiter when Decision is Queued.
	Ticket Ticket
	// WaitUntil is the instant at which the caller must call Expire for
	// Ticket, when Decision is Queued (NoDeadline: never).
	WaitUntil time.Duration
}

// Outcome maps a refusal to the shared vocabulary: Full is
// policies.BulkheadFull, DeadlineExceeded is policies.DeadlineExceeded; a
// Granted or Queued acquisition reports ok false.
func (a Acquisition) Outcome() (o policies.Outcome, ok bool) {
	switch a.Decision {
	case Full:
		return policies.BulkheadFull, true
	case DeadlineExceeded:
		return policies.DeadlineExceeded, true
	}
	return 0, false
}

// Grant is what Release returns when it hands the freed slot to a waiter.
type Grant struct {
	// Ticket is the waiter that now holds the slot.
	Ticket Ticket
	// Waited is how long it waited in the queue.
	Waited time.Duration
}

// Stats counts what a bulkhead has done since it was created.
type Stats struct {
	// Granted counts slots given at once by Acquire.
	Granted uint64
	// Queued counts waiters enqueued by Acquire.
	Queued uint64
	// Handed counts slots handed to waiters by Release.
	Handed uint64
	// Full counts acquisitions refused for lack of a slot and of room to wait.
	Full uint64
	// DeadlineExceeded counts acquisitions refused because the deadline had passed.
	DeadlineExceeded uint64
	// Expired counts waiters removed by Expire.
	Expired uint64
	// Cancelled counts waiters removed by Cancel.
	Cancelled uint64
}

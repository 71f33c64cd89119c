// Package deadline is a time budget for a whole user request, propagated
// from hop to hop, and the rule that splits it among downstream calls.
//
// A timeout is not a constant but a budget (the source's rule 3). The
// client says "I need the answer within 800 ms"; every service down the
// chain receives not "its own 500 ms" but what is left of the budget, and
// spends from it. That is how gRPC deadlines and Go's context.Context work.
// Without it, a caller gives up while its callees keep working for nobody:
// the wasted work that feeds a cascading failure.
//
// # Deadline
//
// A Deadline is an absolute expiry instant (a time.Duration since the
// simulation's fixed origin, see package policies); its zero value means no
// deadline. It is a small value type: it is copied with the request, never
// shared, and nothing allocates.
//
//	remaining(now) = max(0, expiry - now)      (Forever with no deadline)
//	expired(now)   = remaining(now) <= 0, i.e. now >= expiry
//
// # Slices for downstream calls
//
// A Policy splits what is left between the downstream calls, after the
// source's Deadline.sub and handle_checkout:
//
//	critical call      slice = max(0, remaining - Reserve)
//	non-critical call  slice = min(NonCriticalCap, max(0, remaining - Reserve))
//
// Reserve (default 50 ms, the source's reserve_s=0.05) is kept back so that
// the hop can still assemble and return a degraded answer instead of a 504.
// A non-critical dependency (recommendations on a checkout page) gets at most
// NonCriticalCap (default 80 ms, the source's min(0.08, deadline.sub())): it
// has no right to eat the whole deadline, and when it fails the page
// degrades instead of failing. A call whose slice is not above MinSlice
// (default 0) must not be sent at all: it is refused on the spot with
// policies.DeadlineExceeded instead of spending another network round trip.
//
// # Propagation
//
// Propagate gives the deadline to send with a call to a child hop:
// now + slice, so the child's own children see what is left of the user's
// budget minus the reserves of every hop above them. In the simulator every
// hop shares one clock and the absolute instant can travel as is; across real
// machines it travels as a relative timeout (gRPC's grpc-timeout header) and
// the receiver rebuilds it with After(receivedAt, timeout), which charges the
// network transit to the budget.
//
// # Concurrency
//
// Deadline and Policy are immutable values and safe for concurrent use.
// Nothing here reads a clock: every method takes the current instant.
package deadline

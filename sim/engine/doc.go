// Package engine is ressim's discrete-event loop: virtual time, an event
// queue ordered by (time, sequence number), cheap cancellation, constant-delay
// lanes for timeouts, and per-component random streams.
//
// The engine knows nothing of requests, services or policies. A component
// implements Handler and schedules itself (with an argument, typically a
// pointer to one of its own pooled records); when the event's time comes, the
// engine advances the clock and calls Handle.
//
// # Time
//
// Virtual time is an integer count of nanoseconds since the start of the run
// (type Time). Nothing in the engine reads the wall clock. Events at the same
// instant run in the order they were scheduled: every event carries a
// sequence number, and the queue orders by (time, sequence). Scheduling an
// event before the current instant is an error (ErrPast).
//
// # Event queue
//
// Pending events live in a 4-ary min-heap of small value entries, typed (no
// container/heap and no interface boxing), pointing into a slab of event
// records with a free list; in steady state scheduling and firing allocate
// nothing. Cancellation is O(1): it bumps the record's generation and frees
// it; the stale heap entry is skipped when it reaches the top. A fired
// event's entry stays at the top while its handler runs, and the first
// event the handler schedules takes its place (one sift-down instead of a
// pop and a push); the sift-down picks among four children without
// branches. Events for the current instant (After(0), At(Now())), such as
// an immediate retry or an answer delivered after its sender returns, skip
// the heap: they already come in (time, sequence) order, so a FIFO ring
// holds them, and the loop fires its head unless the heap's root is for
// the same instant and was scheduled earlier. An event for the current
// instant that no one will cancel, scheduled when nothing else is pending
// for the instant, is the next to fire whatever comes after it: Then keeps
// it in a slot of its own, with no record, no queue entry and no EventID.
//
// Timeouts are the most common event and are usually cancelled. A Lane is a
// FIFO for events that all share one constant delay: since their times are
// non-decreasing in scheduling order, a ring buffer keeps them sorted, and
// only the lane's earliest live entry sits in the heap. Scheduling on a lane
// is O(1) and a cancelled lane entry never touches the heap.
//
// # Randomness
//
// Stream(name) gives each component its own generator (PCG from
// math/rand/v2) seeded from the run's seed and the component's name, so
// adding a component does not shift any other component's draws.
//
// # Concurrency
//
// A Sim is not safe for concurrent use; run independent replications in
// separate Sims, one per goroutine.
package engine

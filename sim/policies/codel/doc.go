// Package codel implements CoDel, Controlled Delay active queue management
// (RFC 8289, K. Nichols, V. Jacobson, A. McGregor, J. Iyengar, 2018),
// applied to a queue of requests instead of packets.
//
// # Why
//
// The rule for overloaded queues in «Устойчивость: circuit breaker, retry,
// bulkhead, backpressure, деградация» ("Resilience: circuit breaker, retry,
// bulkhead, backpressure, degradation"), section 6, is to drop by age, not by
// length: a request that has waited longer than its client will wait must
// be thrown away, never served. Queue length depends on the service rate;
// time in queue (sojourn time) does not, which is why CoDel needs no tuning
// per service. A standing queue (one that never drains) only adds delay, so
// CoDel lets short bursts through and drops from a queue whose minimum
// sojourn time has stayed above Target for a whole Interval.
//
// # Algorithm (RFC 8289 section 5)
//
// CoDel owns no queue. The caller removes the request at the head of its
// queue and calls Dequeue(now, enqueuedAt, backlog); CoDel answers Drop or
// Deliver. After Drop the caller drops that request (answers it with a
// rejection) and dequeues the next one, calling Dequeue again at the same
// now, until CoDel says Deliver or the queue is empty, in which case it
// calls Empty(now). The sequence of calls from one head removal to a
// Deliver or Empty is exactly one call of the RFC's dequeue routine
// (section 5.5), with its inner drop loop; CoDel remembers where in that
// routine it is between calls, so the per-request interface is exactly
// equivalent to the pseudocode.
//
// The state is the RFC's per-queue state (section 5.2): first_above_time,
// drop_next, count, lastcount and dropping.
//
//   - Section 5.6 dodequeue: a request may be dropped ("ok_to_drop") only
//     when its sojourn time is at least Target, the backlog left behind it
//     is above MaxPacket, and the sojourn time has been at or above Target
//     since first_above_time - Interval.
//   - Entering the dropping state drops one request and schedules the next
//     drop at control_law(now, count); the re-entry rule (section 5.5)
//     starts count at count - lastcount instead of 1 if the previous
//     dropping episode ended less than 16 intervals ago.
//   - In the dropping state, each time now reaches drop_next one request is
//     dropped, count grows by one and drop_next = control_law(drop_next,
//     count), where control_law(t, count) = t + Interval / sqrt(count)
//     (section 5.6; section 3.3 explains the square root). Drops so get
//     closer together, as 1/sqrt(count), until the sojourn time falls
//     below Target.
//   - A request with sojourn time below Target, or an empty queue, ends the
//     dropping state.
//
// CoDel needs no timer: it acts only when a request is dequeued.
//
// # Parameters
//
// Target (5 ms) and Interval (100 ms) are the RFC's defaults (sections 4.2
// and 4.3, TARGET and INTERVAL). MaxPacket (1 request) is the RFC's
// maxpacket, the non-starvation rule of section 4.1, counted in requests:
// CoDel never drops when the backlog behind the dequeued request is at most
// MaxPacket. Set it to -1 to drop by age alone.
//
// # Differences from the RFC
//
// The RFC marks "not above target" with first_above_time == 0; this
// package keeps a separate flag, because an instant of 0 is valid here.
// The square root is computed exactly (Linux uses a Newton approximation).
// Nothing else differs.
//
// # Concurrency
//
// A CoDel value is not safe for concurrent use; package wall serialises
// access. It reads no clock and starts no goroutines; Dequeue and Empty do
// not allocate.
package codel

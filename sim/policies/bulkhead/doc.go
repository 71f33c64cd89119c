// Package bulkhead implements concurrency quotas (bulkheads) as pure state
// machines with explicit time: a fixed number of slots per dependency, a
// bounded wait for a slot, then fast failure, with the caller's deadline
// rechecked after the wait.
//
// # Source
//
// The pattern is Michael Nygard's (Release It!, 2nd ed.). The two flavours
// are those of Netflix Hystrix and Resilience4j, whose parameter names the
// configurations follow:
//
//   - Semaphore (Resilience4j SemaphoreBulkhead: maxConcurrentCalls,
//     maxWaitDuration): the caller's own worker waits for a slot, bounded in
//     time by MaxWaitDuration.
//   - Pool (Hystrix thread pool, Resilience4j ThreadPoolBulkhead:
//     maxThreadPoolSize, queueCapacity): a fixed set of workers fed by a
//     queue bounded in length by QueueCapacity; the caller hands the call
//     over and does not hold a worker of its own.
//
// «Устойчивость: circuit breaker, retry, bulkhead, backpressure, деградация»
// ("Resilience: circuit breaker, retry, bulkhead, backpressure,
// degradation"), section 5, sizes a bulkhead by Little's law: slots = target rate
// x normal latency x headroom, 200 req/s x 50 ms x 2 = 20 (SizeByLittlesLaw).
// Its Go sketch waits at most maxWait for a slot and then rechecks the
// context's deadline. DefaultSemaphoreConfig and DefaultPoolConfig use 20
// slots; the article gives no wait bound, so the semaphore's default
// MaxWaitDuration is Resilience4j's 0 (fail at once when full), and the
// pool's default QueueCapacity is 50, the max_pending_requests of the
// resilience article's Envoy example (section 8).
//
// # Waiting without timers
//
// A policy owns no timer, so waiting is modelled as a FIFO queue of waiter
// tickets. Acquire either grants a slot at once, or enqueues the caller and
// returns a Ticket and the instant WaitUntil at which the caller must
// schedule a call to Expire, or rejects (Full, or DeadlineExceeded when the
// caller's deadline has already passed). Release frees a slot and hands it
// to the oldest live waiter, returning that waiter's Ticket so that the
// caller can wake it; a waiter is live at instant now when now <
// WaitUntil. Every queued ticket ends in exactly one of three ways: a Grant
// returned by Release, Expire (its wait ran out) or Cancel (its caller gave
// up). Expire and Cancel on a ticket that was already granted or removed
// report false, so stale timer events are harmless.
//
// WaitUntil is min(now + MaxWaitDuration, deadline) for a Semaphore and the
// caller's deadline for a Pool: a waiter is never granted at or after its
// deadline, which is the resilience article's deadline recheck after the
// wait (section 5); Expire says whether the wait ended by the bulkhead's
// bound (BulkheadFull) or by the deadline (DeadlineExceeded).
//
// The queue is a ring buffer indexed by ticket number: O(1) per operation
// (amortised), and allocation-free once it has grown to the largest backlog
// seen.
//
// # Time, determinism, concurrency
//
// Instants are time.Duration values since an arbitrary fixed origin (see
// package policies); NoDeadline stands for "no deadline". Neither type is
// safe for concurrent use.
package bulkhead

// Package health implements Kubernetes readiness and liveness probes as
// pure state machines with explicit time, and a conjunction of named checks
// with which a readiness probe can be defined, so that the classic trap of a
// readiness probe that depends on a non-critical dependency can be modelled.
//
// # Source
//
// Kubernetes container probes (the Probe fields of the core/v1 API:
// initialDelaySeconds, periodSeconds, timeoutSeconds, successThreshold,
// failureThreshold, with their defaults 0, 10 s, 1 s, 1 and 3). The probe
// result itself (an HTTP GET, a command) is supplied by the caller.
//
// # Algorithm
//
// A probe starts at the instant given to its constructor (the container's
// start). The first probe is due InitialDelay later, and each next one
// Period after the previous probe started (or after it ended, if it took
// longer than Period). NextProbeAt says when; the caller runs the check then
// and reports it with Observe(now, passed, took). A probe passes when the
// check passed and took less than Timeout; a probe that took Timeout or
// longer fails (the kubelet's timeout fires at timeoutSeconds), and its
// result is known at now + Timeout.
//
//   - Readiness starts Unready. After SuccessThreshold consecutive passing
//     probes it becomes Ready; after FailureThreshold consecutive failing
//     probes it becomes Unready again. A load balancer sends traffic only
//     to Ready instances.
//   - Liveness starts Live. After FailureThreshold consecutive failing
//     probes it becomes Restarting: the container must be restarted, and no
//     probe runs until the caller reports the restart with Restarted, which
//     resets the probe (Live, counters cleared, next probe InitialDelay
//     later). Kubernetes requires SuccessThreshold 1 for liveness probes.
//
// Restarted on a readiness probe models the container's restart: the
// instance is Unready until it passes again.
//
// Transitions (Unready to Ready, Ready to Unready, Live to Restarting,
// Restarting to Live) are returned as values, with the instant the result
// became known.
//
// # The trap
//
// «Устойчивость: circuit breaker, retry, bulkhead, backpressure, деградация»
// ("Resilience: circuit breaker, retry, bulkhead, backpressure,
// degradation"), section 11: a health check that checks the availability of
// dependencies turns a partial failure into a total one. If service A
// reports "not ready" because B is down, the balancer removes every instance
// of A at once (they all probe the same B), and instead of degrading A
// disappears. A readiness probe must answer "can I serve traffic, at least
// partly?", not "is everything in the world fine?". Checks expresses a
// readiness check as the conjunction of named checks, so an experiment can
// define the wrong probe (Checks{"self", "recommendations"}) next to the
// right one (Checks{"self"}) and show the difference. A liveness probe must
// depend on nothing outside the process at all: failing it restarts the
// container, and restarting every instance because of a dependency is a
// restart storm.
//
// # Time, determinism, concurrency
//
// Instants are time.Duration values since an arbitrary fixed origin (see
// package policies). Kubernetes adds a random delay before the first probe;
// a caller that wants it adds it to the start instant. No type here is safe
// for concurrent use.
package health

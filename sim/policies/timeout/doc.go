// Package timeout configures per-attempt timeouts and checks them against
// each other and against the dependency's latency.
//
// No pattern in «Устойчивость: circuit breaker, retry, bulkhead,
// backpressure, деградация» ("Resilience: circuit breaker, retry, bulkhead,
// backpressure, degradation") means anything without timeouts (section 2): a
// breaker cannot see a failure if the call hangs forever, a bulkhead never
// frees its slot, a retry never starts. A call without a timeout is not a
// call but a resource leak. The package covers the three rules of section 2
// and its advice on choosing the value.
//
// # Per-attempt timeout (Policy)
//
// A Policy holds the timeout of one attempt (Config.Attempt). It is the
// innermost wrapper around the call: it bounds the attempt, and the
// request's deadline bounds the whole operation. The timeout actually
// applied to an attempt that starts at instant start under a deadline
// instant (0 = none) is
//
//	Effective = min(Attempt, deadline - start)   (0 if the deadline has passed)
//
// and the attempt times out at start + Effective. The caller schedules that
// instant (an engine event in the simulator, a timer in production);
// nothing here reads a clock.
//
// # Callers wait longer than callees (Check, CheckChain)
//
// Rule 2: the caller's timeout must be longer than its callee's. If a
// gateway waits 1 s while the service behind it waits 3 s for its database,
// the gateway always gives up first and the service spends two more seconds
// on an answer nobody will take. A callee that retries needs more: its
// worst case is
//
//	attempts*timeout + backoff
//
// (backoff = the worst-case sum of the delays between its attempts; with
// package retry, the source's bound k*timeout + k*cap is retry.WorstCase).
// For every pair of calls A -> B (timeout T_AB) and B -> C (attempts k,
// timeout T_BC, backoff D), Check reports
//
//   - NotLonger if T_AB <= T_BC: A gives up before B's first attempt can
//     time out;
//   - RetriesNotCovered if T_BC < T_AB <= k*T_BC + D: B's retries outlive
//     A's patience, and its late attempts are wasted work;
//
// and for every call with no timeout (Timeout <= 0), Missing. The graph is
// plain data (names and durations), so the check runs on a topology before
// any simulation. Calls are checked pairwise: if B makes several calls in
// sequence, A's timeout must in fact cover their sum, which the check does
// not know. A propagated deadline (package deadline) makes rule 2 hold by
// construction; the check is for the static timeouts underneath it.
//
// # Choosing the value (Sizing)
//
// The starting point is the dependency's p99.9 latency in normal operation
// plus a margin, and no more than the user is willing to wait. A timeout
// far above p99.9 does not insure anything: if p99.9 is 300 ms and the
// timeout 10 s, a failing dependency holds every caller's slot for 10 s
// (by Little's law, rate x timeout slots: 1000 req/s x 10 s = 10 000). Too
// long a timeout is more dangerous than too short: a short one gives a fast
// failure that can be handled, a long one exhausts resources, which cannot.
// Sizing.Recommend returns min(Patience, p99.9 x (1 + Headroom)) and
// Sizing.Assess flags a timeout at or below p99.9 or above MaxFactor x p99.9;
// DeadSlots gives the slots a dead dependency holds. Headroom (0.5) and
// MaxFactor (3) are ressim's defaults, not the article's; its section 2
// gives the rule, not the numbers.
//
// # Concurrency
//
// Policy, Sizing and the check functions are immutable values or pure
// functions, safe for concurrent use. Policy's methods allocate nothing.
package timeout

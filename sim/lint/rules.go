package lint

// Rule is one check of the review checklist.
type Rule struct {
	// ID is the stable identifier, "RS" and three digits.
	ID string
	// Title is a short name of the rule.
	Title string
	// Severity is the severity of its findings.
	Severity Severity
	// Section is the section of «Устойчивость: circuit breaker, retry,
	// bulkhead, backpressure, деградация» the rule comes from.
	Section string
	// Rationale is one paragraph: why the rule exists.
	Rationale string
}

// source names the text the rules come from.
const source = "«Устойчивость: circuit breaker, retry, bulkhead, backpressure, деградация»"

// Rules returns every rule, in ID order. The slice is new on each call.
func Rules() []Rule {
	return []Rule{
		{"RS000", "lint-ignore comment without a reason", Warning, "12",
			"A finding is silenced only by a comment that says why (`# ressim:lint-ignore RSnnn because ...`): the checklist of " + source + ", section 12, is a review aid, and a review needs the reason written down next to the exception."},
		{"RS001", "call without a finite timeout", Error, "2, 12",
			"Section 2 calls the timeout the foundation without which nothing works, and the first line of the checklist in section 12 asks that every outgoing call have a timeout and none be infinite by default. A call without one holds a worker for as long as the dependency hangs, and a slow dependency then exhausts the caller's pool."},
		{"RS002", "timeout longer than the caller's deadline", Error, "2, 12",
			"A timeout longer than the deadline of every user request that reaches the call never fires before the user has given up (section 2): the caller keeps waiting, holding a worker, for an answer no one will read. The timeout should be derived from the deadline that remains, not set once to a round large number. With `propagate_deadlines = true` each attempt's timeout is cut to what is left of the deadline, and the rule does not apply."},
		{"RS003", "user deadline not propagated", Warning, "2, 12",
			"The checklist (section 12) asks that the user's deadline be passed down and checked before each call. Without propagation (`propagate_deadlines = true`) a service deep in the chain keeps working on a request whose user has already timed out: work that can no longer help anyone, done exactly when capacity is short."},
		{"RS004", "non-critical dependency without a reduced time budget", Warning, "7, 12",
			"The checklist (section 12) asks to know which dependencies are critical and to give the non-critical ones a cut-down time budget: a recommendation block must not be allowed to spend the time the order needs. A non-critical call with no timeout, or one as long as the critical calls' or above half the user's deadline, spends it."},
		{"RS005", "retry without jitter", Warning, "3.2, 12",
			"Retries with no backoff, a constant one or a plain exponential one synchronise: every client that failed at the same moment retries at the same moment again. Section 3.2 and the checklist (section 12) ask for full jitter."},
		{"RS006", "retry without a budget", Warning, "3.3, 12",
			"Section 3.3 shows that retries multiply load exactly when the dependency is least able to take it, and the checklist (section 12) asks for a retry budget as a percentage of traffic (`retry_budget`, or Envoy's retry concurrency). Without one a failing dependency receives up to `attempts` times the normal load."},
		{"RS007", "retries at more than one layer of a chain", Error, "3.3, 11, 12",
			"Retries at k layers of a chain multiply: 3 attempts at each of three layers is 27 calls at the bottom per user request (section 3.3, and among the typical mistakes of section 11). The checklist (section 12) asks to retry at one layer only. The finding names the path and its worst-case amplification, the product of the attempts along it. A hedged call counts as a retrying layer, its `hedge.attempts` copies as attempts: every copy is a call to the callee, and hedges at two layers multiply as retries do (marked `hedged` in the path). A layer whose retries draw on a retry budget does not count (section 3.3's cure), nor a hedged one with a token `retry_budget` (hedges draw on it; a concurrency budget limits only retries): in steady state a token budget allows 1 + ratio attempts per call, plus its reserve's retries per second over the layer's call rate, and the worst case holds only while the bucket's tokens last; the paths list gives both (`27x (1.36x steady)`)."},
		{"RS008", "retry of a non-idempotent operation", Error, "3.1, 12",
			"Only idempotent operations with retryable failures may be retried (section 3.1, checklist in section 12): a retried non-idempotent call can charge a card twice. The simulator never retries a call marked `idempotent = false`, so attempts > 1 there is a configuration that says one thing and does another."},
		{"RS009", "circuit breaker with a wide half-open", Warning, "4, 12",
			"Section 4 and the checklist (section 12) ask for a breaker with a limited half-open state: a handful of probe calls decides whether the dependency has recovered. A wide half-open lets a burst through to a dependency that has just come back and can knock it down again."},
		{"RS010", "circuit breaker with a small minimum sample", Warning, "4, 12",
			"The checklist (section 12) asks for a breaker configured with a minimum number of calls: with too few calls in the window, two failures out of three open the circuit on noise and cut off a healthy dependency."},
		{"RS011", "dependency without its own bulkhead", Note, "5, 12",
			"Section 5 and the checklist (section 12) ask for bulkheads per dependency and per traffic class: when a service's workers are shared by several dependencies or operations, one slow dependency takes all of them and everything else on the service fails with it."},
		{"RS012", "unbounded queue", Warning, "6, 12",
			"Every queue must be bounded, with a fast refusal when it is full rather than growth (section 6, checklist in section 12). An unbounded queue turns overload into latency that no one waits for, and the queue keeps the service overloaded after the surge is over."},
		{"RS013", "queue without shedding by age or priority", Note, "6, 12",
			"Section 6 and the checklist summary (section 12) ask for shedding by age and by priority: a bounded queue alone still serves requests whose users have left. CoDel, adaptive LIFO, priority shedding or abandonment on expiry drop them first."},
		{"RS014", "readiness depends on a non-critical dependency", Error, "11, 12",
			"A readiness probe that checks a dependency turns that dependency's partial failure into a total one: every instance turns unready at once and the balancer removes them all (section 11). The checklist (section 12) asks that readiness not depend on non-critical dependencies; it should answer «can I serve at least part of the traffic»."},
		{"RS015", "liveness probe that can restart a service under load", Warning, "6, 11",
			"A liveness probe answered through the same queue as the traffic fails when the queue is long, and restarting an overloaded instance loses its work and moves its load onto the others (section 11's health-check mistakes; section 6 on overload). Without a bounded queue that sheds by age, a surge can restart every instance in turn."},
		{"RS016", "non-critical call without a fallback", Note, "7, 9, 12",
			"The checklist (section 12) asks that every non-critical dependency have a described and tested fallback, and that degraded answers be visible in metrics with an alert on long fallback use (sections 7 and 9). Without a declared fallback the degraded answer is whatever the failure leaves behind."},
		{"RS017", "circuit breaker without a fallback", Note, "4, 7",
			"Section 4 says what a circuit breaker does not do: it does not make the system more available by itself, it only turns «wait long and fail» into «fail at once»; it becomes useful together with a fallback (a cache, a default value, a cut-down answer), and a breaker without a thought-out fallback just shows the user the error sooner. A call guarded by a breaker that declares no fallback gets this note; a non-critical one gets RS016 instead."},
		{"RS018", "hedge that copies every call", Warning, "3",
			"A hedge is a retry sent before the first attempt has failed, and section 3 shows what retries cost: every copy is load on the callee. With `hedge.delay` 0 (gRPC's default) every call sends all its copies at once, and with `initial_requests` above 1 that many: the callee's load is multiplied on every call, not only on the slow ones a hedge is meant for. \"The Tail at Scale\" (Dean and Barroso) waits for about the callee's p95 latency before hedging, which bounds the extra load at about 5 %."},
		{"RS019", "hedge without a budget", Warning, "3.3, 12",
			"Hedges multiply load exactly when the callee is slow, as retries do when it fails (section 3.3): near capacity the copies slow the callee, more calls pass the delay and send copies, and the hedge becomes a storm of its own (`experiments/hedging.toml`, from 80 % of capacity). Hedges draw on the call's token `retry_budget`, as gRPC's retryThrottling does, and the checklist (section 12) asks for such a budget; Envoy's concurrency budget limits retries, not hedges. Without one nothing stops the hedges: up to `hedge.attempts` times the load."},
		{"RS020", "hedged call to a service that never cancels", Warning, "2",
			"The first good answer ends a hedged call and the caller cancels the other copies; whether their work stops is up to the callee. A service with `cancellation = \"never\"` (the default) runs each losing copy to its end and throws the answer away: section 2 calls work whose result nobody can take pure burning of capacity. Near capacity that work is what tips the service over (`experiments/hedging.toml`: the uncancelled hedge collapses at 80-95 % of capacity, the same hedge with `cancellation = \"continuous\"` helps). `continuous` stops at once; `at_step` stops at the next step boundary and drops a queued copy without taking a worker."},
		{"RS021", "retries against a sticky fault", Note, "3",
			"Section 3 says retries are worth it only for transient failures: a retry is a bet that the next attempt meets a different state. A failure that sticks to a user, a key or a shard (a `sticky` error fault with `rate = 1`) meets the same state at every attempt: with a share `s` failing, a call of `k` attempts succeeds on at most 1 - s of the requests whatever its retry policy, and spends `k` attempts on each request of the share, the ones that cannot succeed. The retries above such a fault are pure load on the failing share; a retry budget bounds it, only not retrying the failure (or fixing its cause) removes it (`experiments/sticky-failures.toml`; jirfag's \"Good retry, bad retry\" fails a fixed share of users the same way)."},
	}
}

// ruleByID returns the rule with the given ID.
func ruleByID(id string) (Rule, bool) {
	for _, r := range Rules() {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}

// Package lint checks an experiment's configuration against the review
// checklist of «Устойчивость: circuit breaker, retry, bulkhead,
// backpressure, деградация» (section 12, «Мини-итог и чек-лист») and its
// typical mistakes (section 11, «Типичные ошибки»), without running it.
//
// Each rule has an ID (RS001...), a severity and a rationale citing the
// section it comes from (Rules, docs/lint.md). Check returns findings with
// the file, line and column of the key at fault, and the worst-case retry
// amplification along every call path (a hedged call's copies count as
// attempts). A finding is silenced by a
// reasoned comment on the line before the key (or on its line):
//
//	# ressim:lint-ignore RS006 because the budget is Envoy's, outside the model
//
// The checks are pure functions of the configuration: the same file gives
// the same findings in the same order. Simulate goes one step further and
// runs the standard stress scenarios (a dependency slowed x10, a latency
// spike, an instance crash, a surge to 150 %) on copies of each variant,
// deterministically (the experiment's seed, a bounded number of events),
// adding their verdicts and the measured amplification to the report.
package lint

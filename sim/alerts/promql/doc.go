// Package promql evaluates Prometheus alerting and recording rules on a
// simulated run in Go, for the playground's game day mode: the page runs
// ressim as WebAssembly and cannot run promtool. It implements a
// documented subset of PromQL (docs/observability.md, "The page's PromQL
// subset") with the semantics of Prometheus 2.42, the promtool that
// package sim/alerts runs; promtool stays the reference, and
// sim/alerts' TestSubsetMatchesPromtool, TestSubsetCoverageMatchesPromtool
// and TestSubsetSyntheticMatchesPromtool require identical alert episodes
// and recorded values (1e-9 relative) on the repository's rules files and
// experiments, on a rules file using all of the subset, and on hand-made
// series with gaps and counter resets.
//
// The subset: number literals (decimal, hexadecimal, Inf, NaN); vector
// selectors with =, !=, =~, !~ matchers (regular expressions anchored at
// both ends, Go's RE2 syntax); range selectors [d]; the functions rate,
// increase, delta, irate, max_over_time, min_over_time, avg_over_time,
// sum_over_time, count_over_time, histogram_quantile (classic le
// buckets) and vector; the aggregations sum, max, min, avg and count with
// by or without before or after the argument; the binary operators ^, *,
// /, %, +, - and the comparisons ==, !=, >, <, >=, <= (filtering, or 0/1
// with bool) between scalars and vectors, one-to-one between vectors
// (on(...) or ignoring(...)), and the set operators and, or, unless;
// unary minus; parentheses; Prometheus' precedence (^ right-associative
// and above unary minus). Anything else (other functions and
// aggregations, offset, @, subqueries, group_left/group_right, string
// literals, label templates) is an *Error naming it and its position.
//
// Semantics, as Prometheus 2.42 (Prometheus 3 changed the first two):
// a range selector at t holds the samples in [t-d, t], both ends
// included; an instant selector the latest sample in [t-5m, t] (the
// lookback delta), unless it is a staleness marker; rate and increase
// are extrapolatedRate (counter resets added back, extrapolation to the
// window's edges when the first and last samples are within 1.1 average
// intervals of them, else by half an interval, and not below the
// counter's zero point); __name__ is dropped by functions, aggregations,
// arithmetic and bool comparisons, kept by filtering comparisons and set
// operators; two samples with the same labels after an operation are an
// error, as in Prometheus.
//
// Rules (ParseRules, a file of at most MaxRulesSize bytes, checked as
// promtool check rules does): Run evaluates every group at 0, interval,
// 2*interval, ... up to the end, groups in file order, rules in order; a
// recording rule's samples are written at the evaluation time (later
// rules and groups see them at once) with staleness markers for the
// series it stops returning, and an alerting rule runs Prometheus'
// state machine (pending when its expression returns the label set,
// firing once for has passed, inactive when it no longer returns it or
// keep_firing_for after that) and writes ALERTS and ALERTS_FOR_STATE. A
// group's own interval is read but, as in promtool test rules, ignored.
// Evaluation errors (such as duplicate label sets) end the evaluation
// with an error naming the rule and time.
//
// Budgets: expressions of at most MaxExprLen bytes and MaxDepth nested
// operations; Limits on series, stored points and samples visited
// (Result.Cost); at most MaxSteps evaluations. The package uses no wall
// clock, no goroutines and no os/exec, and its output is sorted (alert
// instances by name, then labels).
package promql

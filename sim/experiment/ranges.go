package experiment

import (
	"github.com/ressim/ressim/sim/topology"
)

// The ranges of the numeric keys live in topology's range table
// (topology.SettingRanges), which Config.Validate checks too, so that a
// Config built in Go gets the file's refusals. The keys below are the
// file's alone: the model has no setting for them, or checks them in
// another package (dist's parameters).
var (
	seedRange         = topology.Range{Lo: 0, Hi: 1 << 62, Int: true, Unit: "seed"}
	replicationsRange = topology.Range{Lo: 1, Hi: MaxReplications, Int: true, Unit: "runs per variant"}
	erlangKRange      = topology.Range{Lo: 1, Hi: 1000, Int: true, Unit: "exponential phases"}
	hyperSCVRange     = topology.Range{Lo: 1, Hi: 1e6, Unit: "squared coefficient of variation"}
	lognormalSigma    = topology.Range{Lo: 0, Hi: 10, OpenLo: true, Unit: "shape of the underlying normal"}
)

// numericKey is one documented numeric key: where
// docs/experiment-format.md states its range (in the section whose heading
// contains Section, the first line that starts with Row, or with
// "| `Key` |" when Row is empty, together with that line's continuation)
// and whose range it is: the model's Setting, or Own for a key of the
// file alone.
type numericKey struct {
	Section, Key string
	Row          string // the documentation line's start, when the key has no row of its own
	Setting      topology.Setting
	Own          topology.Range
}

// rng returns the key's range.
func (k numericKey) rng() topology.Range {
	if k.Setting != "" {
		return k.Setting.Range()
	}
	return k.Own
}

// numericKeys says where the documentation states each numeric key's
// range; TestRangesDocumented checks that it does, and that every setting
// of topology's table is here. Treat it as constant.
var numericKeys = []numericKey{
	{"`[experiment]`", "seed", "", "", seedRange},
	{"`[experiment]`", "replications", "", "", replicationsRange},
	{"`[experiment]`", "recovery_threshold", "", topology.SettingRecoveryThreshold, topology.Range{}},
	{"`[experiment]`", "recovery_alpha", "", topology.SettingRecoveryAlpha, topology.Range{}},
	{"`[[client]]`", "rate", "", topology.SettingClientRate, topology.Range{}},
	{"`[[client]]`", "rate", "**Schedules.**", topology.SettingScheduleRate, topology.Range{}},
	{"`[[client]]`", "users", "", topology.SettingClientUsers, topology.Range{}},
	{"`[[service]]`", "instances", "", topology.SettingInstances, topology.Range{}},
	{"`[[service]]`", "workers", "", topology.SettingWorkers, topology.Range{}},
	{"`[[service]]`", "max_in_flight", "", topology.SettingMaxInFlight, topology.Range{}},
	{"`[[service]]`", "queue_capacity", "", topology.SettingQueueCapacity, topology.Range{}},
	{"`[[service]]`", "contention", "", topology.SettingContention, topology.Range{}},
	{"handlers", "probability", "", topology.SettingCallProbability, topology.Range{}},
	{"handlers", "weight", "", topology.SettingCallWeight, topology.Range{}},
	{"Call policy", "attempts", "", topology.SettingRetryAttempts, topology.Range{}},
	{"Hedging", "attempts", "", topology.SettingHedgeAttempts, topology.Range{}},
	{"Hedging", "initial_requests", "", topology.SettingHedgeInitialRequests, topology.Range{}},
	{"Hedging", "additional_chance", "", topology.SettingHedgeAdditionalChance, topology.Range{}},
	{"Call guards", "max_concurrent", "", topology.SettingBulkheadMaxConcurrent, topology.Range{}},
	{"Call guards", "window_size", "", topology.SettingBreakerWindowSize, topology.Range{}},
	{"Call guards", "minimum_calls", "", topology.SettingBreakerMinimumCalls, topology.Range{}},
	{"Call guards", "failure_rate", "", topology.SettingBreakerFailureRate, topology.Range{}},
	{"Call guards", "slow_call_rate", "", topology.SettingBreakerSlowCallRate, topology.Range{}},
	{"Call guards", "half_open_calls", "", topology.SettingBreakerHalfOpenCalls, topology.Range{}},
	{"Call guards", "ratio", "", topology.SettingBudgetRatio, topology.Range{}},
	{"Call guards", "capacity", "", topology.SettingBudgetCapacity, topology.Range{}},
	{"Call guards", "min_retries_per_second", "", topology.SettingBudgetMinRetriesPerSec, topology.Range{}},
	{"Call guards", "fail_rate", "", topology.SettingFallbackFailRate, topology.Range{}},
	{"`[service.cache]`", "hit_ratio", "", topology.SettingCacheHitRatio, topology.Range{}},
	{"`[service.cache]`", "keys", "", topology.SettingCacheKeys, topology.Range{}},
	{"`shed`", "critical", "", topology.SettingShedCritical, topology.Range{}},
	{"`shed`", "normal", "", topology.SettingShedNormal, topology.Range{}},
	{"`shed`", "background", "", topology.SettingShedBackground, topology.Range{}},
	{"`limit`", "initial", "", topology.SettingLimitInitial, topology.Range{}},
	{"`limit`", "min", "", topology.SettingLimitMin, topology.Range{}},
	{"`limit`", "max", "", topology.SettingLimitMax, topology.Range{}},
	{"`limit`", "backoff_ratio", "", topology.SettingLimitBackoffRatio, topology.Range{}},
	{"`outlier`", "consecutive_5xx", "", topology.SettingOutlierConsecutive5xx, topology.Range{}},
	{"`outlier`", "max_ejection_percent", "", topology.SettingOutlierMaxEjection, topology.Range{}},
	{"`readiness`", "failure_threshold", "", topology.SettingReadinessFailures, topology.Range{}},
	{"`readiness`", "success_threshold", "", topology.SettingReadinessSuccesses, topology.Range{}},
	{"Second flavours", "max_threads", rowPool, topology.SettingBulkheadMaxThreads, topology.Range{}},
	{"Second flavours", "queue", rowPool, topology.SettingBulkheadQueue, topology.Range{}},
	{"Second flavours", "budget_percent", rowConcurrency, topology.SettingBudgetPercent, topology.Range{}},
	{"Second flavours", "min_retry_concurrency", rowConcurrency, topology.SettingBudgetMinRetryConcurrency, topology.Range{}},
	{"Second flavours", "capacity", rowAWS, topology.SettingAWSCapacity, topology.Range{}},
	{"Second flavours", "retry_cost", rowAWS, topology.SettingAWSRetryCost, topology.Range{}},
	{"Second flavours", "timeout_cost", rowAWS, topology.SettingAWSTimeoutCost, topology.Range{}},
	{"Second flavours", "success_refund", rowAWS, topology.SettingAWSSuccessRefund, topology.Range{}},
	{"Second flavours", "earn_per_call", rowPerCall, topology.SettingPerCallEarn, topology.Range{}},
	{"Second flavours", "capacity", rowPerCall, topology.SettingPerCallCapacity, topology.Range{}},
	{"Second flavours", "failure_threshold", rowLiveness, topology.SettingLivenessFailures, topology.Range{}},
	{"Distributions", "k", "| `erlang` |", "", erlangKRange},
	{"Distributions", "scv", "| `hyperexponential` |", "", hyperSCVRange},
	{"Distributions", "sigma", "| `lognormal` |", "", lognormalSigma},
	{"`[[fault]]`", "instance", "", topology.SettingFaultInstance, topology.Range{}},
	{"`[[fault]]`", "multiply", "| `latency` |", topology.SettingLatencyMultiply, topology.Range{}},
	{"`[[fault]]`", "multiply", "| `load` |", topology.SettingLoadMultiply, topology.Range{}},
	{"`[[fault]]`", "rate", "| `error` |", topology.SettingErrorRate, topology.Range{}},
	{"`[[fault]]`", "instances", "| `crash` |", topology.SettingCrashInstances, topology.Range{}},
	{"`[[fault]]`", "workers", "| `workers` |", topology.SettingWorkersLost, topology.Range{}},
	{"Sticky faults", "share", "", topology.SettingStickyShare, topology.Range{}},
	{"Sticky faults", "users", "", topology.SettingStickyUsers, topology.Range{}},
	{"Sticky faults", "keys", "", topology.SettingStickyKeys, topology.Range{}},
}

// The documentation lines of the second flavours of the guards, and of
// the liveness probe.
const (
	rowPool        = "- `bulkhead = { kind = \"pool\""
	rowAWS         = "- `retry_budget = { kind = \"aws_standard\""
	rowPerCall     = "- `retry_budget = { kind = \"per_call_tokens\""
	rowConcurrency = "- `retry_budget = { kind = \"concurrency\""
	rowLiveness    = "- `liveness = {"
)

// ranged reads a number (an integer when g.Int) within g.
func (t *table) ranged(k string, required bool, g topology.Range) (float64, bool) {
	v, ok := t.get(k)
	if !ok {
		if required {
			t.r.errorf(t.path, "missing required key %q (a number, %s)", k, g.Unit)
		}
		return 0, false
	}
	var x float64
	switch n := v.(type) {
	case int64:
		x = float64(n)
	case float64:
		if g.Int {
			t.r.errorf(t.key(k), "expected an integer, got a float")
			return 0, false
		}
		x = n
	default:
		what := "a number"
		if g.Int {
			what = "an integer"
		}
		t.r.errorf(t.key(k), "expected %s (%s), got %s", what, g.Unit, typeName(v))
		return 0, false
	}
	if !g.Contains(x) {
		t.r.errorf(t.key(k), "%s", g.Refusal(x))
		return 0, false
	}
	return x, true
}

// rangedNum and rangedInt apply one optional key to *dst.
func rangedNum(t *table, k string, g topology.Range, dst *float64, ok *bool) {
	if v, good := t.ranged(k, false, g); good {
		*dst = v
	} else if t.has(k) {
		*ok = false
	}
}

func rangedInt(t *table, k string, g topology.Range, dst *int, ok *bool) {
	if v, good := t.ranged(k, false, g); good {
		*dst = int(v)
	} else if t.has(k) {
		*ok = false
	}
}

// intIn reads an integer within the integer range g.
func (t *table) intIn(k string, required bool, g topology.Range) (int64, bool) {
	return t.integer(k, required, int64(g.Lo), int64(g.Hi))
}

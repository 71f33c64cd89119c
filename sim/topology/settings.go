package topology

import (
	"fmt"
	"strings"

	"github.com/ressim/ressim/sim/policies/hedge"
	"github.com/ressim/ressim/sim/policies/retry"
)

// Setting names one numeric setting of a Config by the experiment file's
// dotted key ("service.instances", "fault.latency.multiply"; a fault's
// kind or a guard's flavour is part of the name when the key's range
// depends on it). Validate checks the Go field against the setting's
// Range, and the file reader checks the key against the same Range.
type Setting string

// The numeric settings, each with the Go field it ranges.
const (
	SettingRecoveryThreshold         Setting = "experiment.recovery_threshold"                  // RecoveryConfig.Threshold
	SettingRecoveryAlpha             Setting = "experiment.recovery_alpha"                      // RecoveryConfig.Alpha
	SettingClientRate                Setting = "client.rate"                                    // ClientConfig.Rate
	SettingScheduleRate              Setting = "client.schedule.rate"                           // RatePoint.Rate
	SettingClientUsers               Setting = "client.users"                                   // ClientConfig.Users
	SettingInstances                 Setting = "service.instances"                              // ServiceConfig.Instances
	SettingWorkers                   Setting = "service.workers"                                // ServiceConfig.Workers
	SettingMaxInFlight               Setting = "service.max_in_flight"                          // ServiceConfig.MaxInFlight
	SettingQueueCapacity             Setting = "service.queue_capacity"                         // ServiceConfig.QueueCapacity
	SettingContention                Setting = "service.contention"                             // ServiceConfig.Contention
	SettingCacheHitRatio             Setting = "service.cache.hit_ratio"                        // CacheConfig.HitRatio
	SettingCacheKeys                 Setting = "service.cache.keys"                             // CacheConfig.Keys
	SettingCallProbability           Setting = "call.probability"                               // CallConfig.Probability
	SettingCallWeight                Setting = "call.weight"                                    // CallConfig.Weight, in a ChooseStep
	SettingRetryAttempts             Setting = "retry.attempts"                                 // CallPolicy.Retry.MaxAttempts
	SettingHedgeAttempts             Setting = "hedge.attempts"                                 // CallPolicy.Hedge.MaxAttempts
	SettingHedgeInitialRequests      Setting = "hedge.initial_requests"                         // CallPolicy.Hedge.InitialRequests
	SettingHedgeAdditionalChance     Setting = "hedge.additional_chance"                        // CallPolicy.Hedge.AdditionalChance
	SettingBulkheadMaxConcurrent     Setting = "bulkhead.max_concurrent"                        // bulkhead.SemaphoreConfig.MaxConcurrentCalls
	SettingBulkheadMaxThreads        Setting = "bulkhead.pool.max_threads"                      // bulkhead.PoolConfig.MaxThreadPoolSize
	SettingBulkheadQueue             Setting = "bulkhead.pool.queue"                            // bulkhead.PoolConfig.QueueCapacity
	SettingBreakerWindowSize         Setting = "breaker.window_size"                            // breaker.Config.SlidingWindowSize
	SettingBreakerMinimumCalls       Setting = "breaker.minimum_calls"                          // breaker.Config.MinimumNumberOfCalls
	SettingBreakerFailureRate        Setting = "breaker.failure_rate"                           // breaker.Config.FailureRateThreshold
	SettingBreakerSlowCallRate       Setting = "breaker.slow_call_rate"                         // breaker.Config.SlowCallRateThreshold
	SettingBreakerHalfOpenCalls      Setting = "breaker.half_open_calls"                        // breaker.Config.PermittedNumberOfCallsInHalfOpenState
	SettingBudgetRatio               Setting = "retry_budget.ratio"                             // budget.Config.Ratio
	SettingBudgetCapacity            Setting = "retry_budget.capacity"                          // budget.Config.Capacity
	SettingBudgetMinRetriesPerSec    Setting = "retry_budget.min_retries_per_second"            // budget.Config.MinRetriesPerSec
	SettingBudgetPercent             Setting = "retry_budget.concurrency.budget_percent"        // budget.ConcurrencyConfig.BudgetPercent
	SettingAWSCapacity               Setting = "retry_budget.aws_standard.capacity"             // budget.AWSConfig.Capacity
	SettingAWSRetryCost              Setting = "retry_budget.aws_standard.retry_cost"           // budget.AWSConfig.RetryCost
	SettingAWSTimeoutCost            Setting = "retry_budget.aws_standard.timeout_cost"         // budget.AWSConfig.TimeoutCost
	SettingAWSSuccessRefund          Setting = "retry_budget.aws_standard.success_refund"       // budget.AWSConfig.SuccessRefund
	SettingPerCallEarn               Setting = "retry_budget.per_call_tokens.earn_per_call"     // budget.PerCallConfig.EarnPerCall
	SettingPerCallCapacity           Setting = "retry_budget.per_call_tokens.capacity"          // budget.PerCallConfig.Capacity
	SettingBudgetMinRetryConcurrency Setting = "retry_budget.concurrency.min_retry_concurrency" // budget.ConcurrencyConfig.MinRetryConcurrency
	SettingFallbackFailRate          Setting = "fallback.fail_rate"                             // FallbackConfig.FailRate
	SettingShedCritical              Setting = "shed.critical"                                  // shed.Config.Threshold[policies.Critical]
	SettingShedNormal                Setting = "shed.normal"                                    // shed.Config.Threshold[policies.Normal]
	SettingShedBackground            Setting = "shed.background"                                // shed.Config.Threshold[policies.Background]
	SettingLimitInitial              Setting = "limit.initial"                                  // the algorithm's InitialLimit
	SettingLimitMin                  Setting = "limit.min"                                      // the algorithm's MinLimit
	SettingLimitMax                  Setting = "limit.max"                                      // the algorithm's MaxLimit
	SettingLimitBackoffRatio         Setting = "limit.backoff_ratio"                            // limit.AIMDConfig.BackoffRatio (aimd only)
	SettingOutlierConsecutive5xx     Setting = "outlier.consecutive_5xx"                        // outlier.Config.Consecutive5xx
	SettingOutlierMaxEjection        Setting = "outlier.max_ejection_percent"                   // outlier.Config.MaxEjectionPercent
	SettingReadinessFailures         Setting = "readiness.failure_threshold"                    // ReadinessConfig.Probe.FailureThreshold
	SettingReadinessSuccesses        Setting = "readiness.success_threshold"                    // ReadinessConfig.Probe.SuccessThreshold
	SettingLivenessFailures          Setting = "liveness.failure_threshold"                     // LivenessConfig.Probe.FailureThreshold
	SettingFaultInstance             Setting = "fault.instance"                                 // FaultConfig.Instance
	SettingLatencyMultiply           Setting = "fault.latency.multiply"                         // FaultConfig.Multiply of a LatencyFault
	SettingLoadMultiply              Setting = "fault.load.multiply"                            // FaultConfig.Multiply of a LoadFault
	SettingErrorRate                 Setting = "fault.error.rate"                               // FaultConfig.Rate of an ErrorFault
	SettingCrashInstances            Setting = "fault.crash.instances"                          // FaultConfig.Count of a CrashFault
	SettingWorkersLost               Setting = "fault.workers.workers"                          // FaultConfig.Count of a WorkersFault
	SettingStickyShare               Setting = "fault.sticky.share"                             // StickyConfig.Share
	SettingStickyUsers               Setting = "fault.sticky.users"                             // StickyConfig.Users
	SettingStickyKeys                Setting = "fault.sticky.keys"                              // StickyConfig.Keys
)

// Sizes of the policies' windows, slots and limits: beyond them a typo
// would allocate gigabytes or never settle.
const (
	maxWindow = 1 << 20 // breaker windows, limits, outlier counts
	maxSlots  = 1 << 24 // bulkhead slots and queues, retries in flight
	maxProbes = 1000    // probe thresholds
)

// SettingRange is one row of the range table: a setting, its Range, and
// what its Go field's unset value means when that value lies outside the
// Range.
type SettingRange struct {
	Setting Setting
	Range
	// Absent is the Go value that stands for a key left out of the file,
	// when Means is not empty: Validate accepts it, and Means says what it
	// means ("1", "unbounded"). Go cannot tell an unset field from one set
	// to its zero value, so Validate cannot refuse that value; the file
	// can, and refuses it when written. Without Means, Validate refuses
	// every value outside Range, as the file does.
	Absent float64
	Means  string
}

// settingRanges is the one table of numeric ranges: Validate checks the
// Go fields against it, package experiment the file's keys, and
// sim/experiment's tests check that docs/experiment-format.md states each
// range. Treat it as constant.
var settingRanges = []SettingRange{
	{SettingRecoveryThreshold, Range{Lo: 0, Hi: 1, OpenLo: true, Unit: "share of the baseline goodput"}, 0, "0.9"},
	{SettingRecoveryAlpha, Range{Lo: 0, Hi: 0.1, OpenLo: true, Unit: "false-alarm level of the lock-in test"}, 0, "DefaultRecoveryAlpha"},
	{SettingClientRate, Range{Lo: 0, Hi: MaxRate, OpenLo: true, Unit: "requests per second"}, 0, ""},
	{SettingScheduleRate, Range{Lo: 0, Hi: MaxRate, Unit: "requests per second"}, 0, ""},
	{SettingClientUsers, Range{Lo: 1, Hi: MaxUsers, Int: true, Unit: "users"}, 0, "open loop"},
	{SettingInstances, Range{Lo: 1, Hi: MaxInstances, Int: true, Unit: "instances"}, 0, "1"},
	{SettingWorkers, Range{Lo: 1, Hi: MaxWorkers, Int: true, Unit: "workers per instance"}, 0, ""},
	{SettingMaxInFlight, Range{Lo: 1, Hi: MaxWorkers, Int: true, Unit: "requests per instance"}, 0, ""},
	{SettingQueueCapacity, Range{Lo: 0, Hi: MaxQueue, Int: true, Unit: "requests per instance"}, -1, "unbounded"},
	{SettingContention, Range{Lo: 0, Hi: 1e6, Unit: "slowdown per request in service"}, 0, ""},
	{SettingCacheHitRatio, Range{Lo: 0, Hi: 1, Unit: "share of lookups that hit when warm"}, 0, ""},
	{SettingCacheKeys, Range{Lo: 1, Hi: MaxKeys, Int: true, Unit: "keys"}, 0, ""},
	{SettingCallProbability, Range{Lo: 0, Hi: 1, OpenLo: true, Unit: "share of requests that make the call"}, 0, "1"},
	{SettingCallWeight, Range{Lo: 0, Hi: 1e6, OpenLo: true, Unit: "share of a choose step's requests, relative to the other calls'"}, 0, ""},
	{SettingRetryAttempts, Range{Lo: 1, Hi: retry.MaxMaxAttempts, Int: true, Unit: "attempts"}, 0, "1"},
	{SettingHedgeAttempts, Range{Lo: 1, Hi: hedge.MaxMaxAttempts, Int: true, Unit: "copies of a call"}, 0, "no hedging"},
	{SettingHedgeInitialRequests, Range{Lo: 1, Hi: hedge.MaxMaxAttempts, Int: true, Unit: "copies sent at once"}, 0, "1"},
	{SettingHedgeAdditionalChance, Range{Lo: 0, Hi: 1, Unit: "probability of one more copy at the start"}, 0, ""},
	{SettingBulkheadMaxConcurrent, Range{Lo: 1, Hi: maxSlots, Int: true, Unit: "calls in flight"}, 0, ""},
	{SettingBulkheadMaxThreads, Range{Lo: 1, Hi: maxSlots, Int: true, Unit: "threads"}, 0, ""},
	{SettingBulkheadQueue, Range{Lo: 0, Hi: maxSlots, Int: true, Unit: "queued calls"}, 0, ""},
	{SettingBreakerWindowSize, Range{Lo: 1, Hi: maxWindow, Int: true, Unit: "outcomes or seconds"}, 0, ""},
	{SettingBreakerMinimumCalls, Range{Lo: 1, Hi: maxWindow, Int: true, Unit: "outcomes"}, 0, ""},
	{SettingBreakerFailureRate, Range{Lo: 0, Hi: 100, OpenLo: true, Unit: "percent"}, 0, ""},
	{SettingBreakerSlowCallRate, Range{Lo: 0, Hi: 100, OpenLo: true, Unit: "percent"}, 0, ""},
	{SettingBreakerHalfOpenCalls, Range{Lo: 1, Hi: maxWindow, Int: true, Unit: "probes"}, 0, ""},
	{SettingBudgetRatio, Range{Lo: 1e-6, Hi: 1000, Zero: true, Unit: "tokens per success"}, 0, ""},
	{SettingBudgetCapacity, Range{Lo: 1, Hi: 1e9, Unit: "tokens"}, 0, ""},
	{SettingBudgetMinRetriesPerSec, Range{Lo: 1e-6, Hi: 1e4, Zero: true, Unit: "retries per second"}, 0, ""},
	{SettingBudgetPercent, Range{Lo: 0, Hi: 100, Unit: "percent of the calls in flight"}, 0, ""},
	{SettingAWSCapacity, Range{Lo: 1, Hi: 1e9, Int: true, Unit: "tokens"}, 0, ""},
	{SettingAWSRetryCost, Range{Lo: 1, Hi: 1e6, Int: true, Unit: "tokens per retry"}, 0, ""},
	{SettingAWSTimeoutCost, Range{Lo: 1, Hi: 1e6, Int: true, Unit: "tokens per retry after a timeout"}, 0, ""},
	{SettingAWSSuccessRefund, Range{Lo: 0, Hi: 1e6, Int: true, Unit: "tokens per successful attempt"}, 0, ""},
	{SettingPerCallEarn, Range{Lo: 1e-6, Hi: 1000, Zero: true, Unit: "tokens per call"}, 0, ""},
	{SettingPerCallCapacity, Range{Lo: 1, Hi: 1e9, Unit: "tokens"}, 0, ""},
	{SettingBudgetMinRetryConcurrency, Range{Lo: 0, Hi: maxSlots, Int: true, Unit: "retries in flight"}, 0, ""},
	{SettingFallbackFailRate, Range{Lo: 0, Hi: 1, Unit: "probability the fallback fails too"}, 0, ""},
	{SettingShedCritical, Range{Lo: 0, Hi: 1, OpenLo: true, Unit: "utilisation above which the class is shed"}, 0, ""},
	{SettingShedNormal, Range{Lo: 0, Hi: 1, OpenLo: true, Unit: "utilisation above which the class is shed"}, 0, ""},
	{SettingShedBackground, Range{Lo: 0, Hi: 1, OpenLo: true, Unit: "utilisation above which the class is shed"}, 0, ""},
	{SettingLimitInitial, Range{Lo: 1, Hi: maxWindow, Int: true, Unit: "requests"}, 0, ""},
	{SettingLimitMin, Range{Lo: 1, Hi: maxWindow, Int: true, Unit: "requests"}, 0, ""},
	{SettingLimitMax, Range{Lo: 1, Hi: maxWindow, Int: true, Unit: "requests"}, 0, ""},
	{SettingLimitBackoffRatio, Range{Lo: 0, Hi: 1, OpenLo: true, OpenHi: true, Unit: "factor on a drop"}, 0, ""},
	{SettingOutlierConsecutive5xx, Range{Lo: 1, Hi: maxWindow, Int: true, Unit: "consecutive failures"}, 0, ""},
	{SettingOutlierMaxEjection, Range{Lo: 0, Hi: 100, Int: true, Unit: "percent of the instances"}, 0, ""},
	{SettingReadinessFailures, Range{Lo: 1, Hi: maxProbes, Int: true, Unit: "consecutive probes"}, 0, ""},
	{SettingReadinessSuccesses, Range{Lo: 1, Hi: maxProbes, Int: true, Unit: "consecutive probes"}, 0, ""},
	{SettingLivenessFailures, Range{Lo: 1, Hi: maxProbes, Int: true, Unit: "consecutive probes"}, 0, ""},
	{SettingFaultInstance, Range{Lo: 0, Hi: MaxInstances - 1, Int: true, Unit: "instance index"}, -1, "every instance"},
	{SettingLatencyMultiply, Range{Lo: 0, Hi: 1e6, OpenLo: true, Unit: "factor on local work"}, 0, ""},
	{SettingLoadMultiply, Range{Lo: 0, Hi: 1e6, Unit: "factor on the client's rate"}, 0, ""},
	{SettingErrorRate, Range{Lo: 0, Hi: 1, Unit: "probability a response fails"}, 0, ""},
	{SettingCrashInstances, Range{Lo: 1, Hi: MaxInstances, Int: true, Unit: "instances"}, 0, ""},
	{SettingWorkersLost, Range{Lo: 1, Hi: MaxWorkers, Int: true, Unit: "workers per instance"}, 0, ""},
	{SettingStickyShare, Range{Lo: 0, Hi: 1, OpenLo: true, Unit: "share of the users, keys or requests the fault touches"}, 0, ""},
	{SettingStickyUsers, Range{Lo: 1, Hi: MaxUsers, Int: true, Unit: "users of an open-loop client"}, 0, "1000"},
	{SettingStickyKeys, Range{Lo: 1, Hi: MaxKeys, Int: true, Unit: "keys"}, 0, "the target's cache keys, else 1000"},
}

// SettingRanges returns the range table, in a fixed order.
func SettingRanges() []SettingRange {
	return append([]SettingRange(nil), settingRanges...)
}

// Range returns the setting's range. A setting missing from the table
// (a bug the tests catch) gets an empty range, which refuses every value.
func (s Setting) Range() Range {
	return s.row().Range
}

func (s Setting) row() SettingRange {
	for _, r := range settingRanges {
		if r.Setting == s {
			return r
		}
	}
	return SettingRange{Setting: s, Range: Range{Lo: 1, Hi: 0, Unit: "undocumented setting"}}
}

// Key returns the setting's key in its table: "multiply" for
// "fault.latency.multiply".
func (s Setting) Key() string {
	return string(s[strings.LastIndexByte(string(s), '.')+1:])
}

// check returns nil when x is in the setting's range, or is the Go value
// that means the key is absent; otherwise "KEY must be in ... (UNIT), got
// X", which the caller wraps with where the setting is.
func (s Setting) check(x float64) error {
	r := s.row()
	if r.Range.Contains(x) || r.Means != "" && x == r.Absent {
		return nil
	}
	return fmt.Errorf("%s %s", s.Key(), r.Range.Refusal(x))
}

// checkInt is check for an integer field.
func (s Setting) checkInt(n int) error { return s.check(float64(n)) }

// firstError returns the first of errs that is not nil.
func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

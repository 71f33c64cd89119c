package topology

import (
	"fmt"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/health"
)

// The numeric fields of the policies' configurations, checked against the
// range table before each policy's own Validate, which keeps the rules
// across fields (a limit's min at most its max, a breaker's open pauses).
// A policy package may accept more than the table (a breaker's
// MinimumNumberOfCalls has no upper bound there); a Config gets the
// table's ranges, as a file does.

// checkRanges checks the numeric fields of a call's guards.
func (g *CallGuards) checkRanges() error {
	var errs []error
	if b := g.Bulkhead; b != nil {
		errs = append(errs, SettingBulkheadMaxConcurrent.checkInt(b.MaxConcurrentCalls))
	}
	if p := g.BulkheadPool; p != nil {
		errs = append(errs, SettingBulkheadMaxThreads.checkInt(p.MaxThreadPoolSize),
			SettingBulkheadQueue.checkInt(p.QueueCapacity))
	}
	if b := g.RetryBreaker; b != nil {
		errs = append(errs, SettingBreakerFailureRate.check(b.FailureRateThreshold))
	}
	if b := g.Breaker; b != nil {
		errs = append(errs, SettingBreakerWindowSize.checkInt(b.SlidingWindowSize),
			SettingBreakerMinimumCalls.checkInt(b.MinimumNumberOfCalls),
			SettingBreakerFailureRate.check(b.FailureRateThreshold),
			SettingBreakerSlowCallRate.check(b.SlowCallRateThreshold),
			SettingBreakerHalfOpenCalls.checkInt(b.PermittedNumberOfCallsInHalfOpenState))
	}
	if b := g.Budget; b != nil {
		errs = append(errs, SettingBudgetRatio.check(b.Ratio),
			SettingBudgetCapacity.check(b.Capacity),
			SettingBudgetMinRetriesPerSec.check(b.MinRetriesPerSec))
	}
	if q := g.AWSQuota; q != nil {
		errs = append(errs, SettingAWSCapacity.checkInt(q.Capacity), SettingAWSRetryCost.checkInt(q.RetryCost),
			SettingAWSTimeoutCost.checkInt(q.TimeoutCost), SettingAWSSuccessRefund.checkInt(q.SuccessRefund))
	}
	if q := g.PerCallBudget; q != nil {
		errs = append(errs, SettingPerCallEarn.check(q.EarnPerCall), SettingPerCallCapacity.check(q.Capacity))
	}
	if b := g.RetryConcurrency; b != nil {
		errs = append(errs, SettingBudgetPercent.check(b.BudgetPercent),
			SettingBudgetMinRetryConcurrency.checkInt(b.MinRetryConcurrency))
	}
	if f := g.Fallback; f != nil {
		errs = append(errs, SettingFallbackFailRate.check(f.FailRate))
	}
	return firstError(errs...)
}

// checkPolicyRanges checks the numeric fields of a service's admission
// policies and of its watchers.
func (s *ServiceConfig) checkPolicyRanges() error {
	var errs []error
	if sh := s.Admission.Shed; sh != nil {
		for p, k := range [...]Setting{SettingShedCritical, SettingShedNormal, SettingShedBackground} {
			errs = append(errs, k.check(sh.Threshold[policies.Priority(p)]))
		}
	}
	if l := s.Admission.Limit; l != nil {
		errs = append(errs, l.checkRanges())
	}
	if o := s.Guards.Outlier; o != nil {
		errs = append(errs, SettingOutlierConsecutive5xx.checkInt(o.Consecutive5xx),
			SettingOutlierMaxEjection.checkInt(o.MaxEjectionPercent))
	}
	if r := s.Guards.Readiness; r != nil {
		errs = append(errs, SettingReadinessFailures.checkInt(r.Probe.FailureThreshold),
			SettingReadinessSuccesses.checkInt(r.Probe.SuccessThreshold))
	}
	if l := s.Guards.Liveness; l != nil {
		errs = append(errs, SettingLivenessFailures.checkInt(l.Probe.FailureThreshold),
			livenessSuccesses(l.Probe))
	}
	return firstError(errs...)
}

// checkRanges checks the bounds of the algorithm in use, and AIMD's
// backoff ratio (the other algorithms do not read it). An unknown
// algorithm is left to build to refuse.
func (c *LimitConfig) checkRanges() error {
	var initial, lo, hi int
	switch c.Algorithm {
	case "aimd":
		initial, lo, hi = c.AIMD.InitialLimit, c.AIMD.MinLimit, c.AIMD.MaxLimit
	case "gradient2":
		initial, lo, hi = c.Gradient2.InitialLimit, c.Gradient2.MinLimit, c.Gradient2.MaxLimit
	case "vegas":
		initial, lo, hi = c.Vegas.InitialLimit, c.Vegas.MinLimit, c.Vegas.MaxLimit
	default:
		return nil
	}
	errs := []error{SettingLimitInitial.checkInt(initial), SettingLimitMin.checkInt(lo), SettingLimitMax.checkInt(hi)}
	if c.Algorithm == "aimd" {
		errs = append(errs, SettingLimitBackoffRatio.check(c.AIMD.BackoffRatio))
	}
	return firstError(errs...)
}

// livenessSuccesses refuses a liveness probe's SuccessThreshold other than
// 1, which health.NewLiveness refuses when the model is built: Validate
// says so first (a file has no key for it).
func livenessSuccesses(p health.Config) error {
	if p.SuccessThreshold != 1 {
		return fmt.Errorf("liveness success threshold must be 1, got %d", p.SuccessThreshold)
	}
	return nil
}

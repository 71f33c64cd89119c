package wall

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/breaker"
	"github.com/ressim/ressim/sim/policies/budget"
	"github.com/ressim/ressim/sim/policies/bulkhead"
	"github.com/ressim/ressim/sim/policies/deadline"
	"github.com/ressim/ressim/sim/policies/fallback"
	"github.com/ressim/ressim/sim/policies/retry"
	"github.com/ressim/ressim/sim/policies/shed"
	"github.com/ressim/ressim/sim/policies/timeout"
)

// ErrInvalidConfig is wrapped by every error New returns for a bad Config.
var ErrInvalidConfig = errors.New("wall: invalid config")

// Config configures a Caller: one call path for one (dependency, operation)
// pair. Every policy is optional: a nil pointer leaves it out of the path.
// The Caller builds its own policy values from these configurations, so that
// nothing else can touch them without its mutex.
type Config struct {
	// Clock is the source of time. Nil means NewMonotonicClock().
	Clock Clock
	// Rand supplies the uniform variates of the retry's jittered backoff.
	// Nil means a generator seeded from crypto/rand, so that the instances
	// of a fleet do not retry in lockstep; pass a seeded one to reproduce
	// a run. The Caller uses it under its mutex only.
	Rand *rand.Rand

	// Shed turns on load shedding by priority (package shed). The
	// utilisation is the number of calls in flight through this Caller
	// (admitted, not yet finished) over ShedCapacity. The request's class
	// comes from its context (WithPriority; Normal by default).
	Shed *shed.Config
	// ShedCapacity is the number of calls in flight that counts as full
	// (utilisation 1). Required (>= 1) with Shed; ignored otherwise.
	ShedCapacity int

	// Bulkhead bounds the calls in flight to the dependency, with a bounded
	// wait for a slot (package bulkhead, semaphore flavour). A call holds
	// its slot through all its attempts and backoffs.
	Bulkhead *bulkhead.SemaphoreConfig
	// BulkheadPool is the pool flavour of the bulkhead instead (package
	// bulkhead, Pool; Hystrix's thread pool): MaxThreadPoolSize calls run
	// at once and at most QueueCapacity wait, in FIFO order, for as long
	// as their deadline allows (the wait is bounded in length, not in
	// time). The calls still run in their callers' goroutines: the pool
	// is a bound on concurrency and on the queue, not a set of workers.
	// At most one of Bulkhead and BulkheadPool may be set.
	BulkheadPool *bulkhead.PoolConfig

	// Breaker is the circuit breaker (package breaker). Where it sits is
	// Placement: by default around the whole retry loop (one decision and
	// one record per call, as in the simulator). A refusal ends the call
	// with CircuitOpen, which is never retried.
	Breaker *breaker.Config
	// Placement puts the breaker outside the retry loop (OutsideRetry, the
	// default and the simulator's) or inside it (InsideRetry: asked before
	// and fed after every attempt). It mirrors the experiment file's
	// breaker key placement.
	Placement Placement
	// RetryBreaker is the breaker of Placement RetriesOnly (package
	// breaker's RetryGate), instead of Breaker. It requires Retry.
	RetryBreaker *breaker.RetryGateConfig

	// Retry is the retry policy (package retry). If it is set together with
	// Timeout and its AttemptTimeout is 0, New sets AttemptTimeout to
	// Timeout.Attempt, so that a retry that cannot run a full attempt before
	// the deadline is not made.
	Retry *retry.Config
	// Budget is a retry budget (package budget) consulted after Retry has
	// allowed a retry; every successful attempt deposits into it. It
	// requires Retry.
	Budget *budget.Config
	// AWSQuota is the AWS SDKs' standard retry quota (budget.AWS) instead
	// of Budget: a retry costs RetryCost tokens (TimeoutCost after a
	// timeout), a success puts back NoRetryIncrement, and a successful
	// retry also its cost. It requires Retry.
	AWSQuota *budget.AWSConfig
	// PerCallBudget is Brooker's per-call bucket (budget.PerCall) instead
	// of Budget: every call earns EarnPerCall tokens, a retry spends one.
	// It requires Retry. At most one of Budget, AWSQuota and PerCallBudget
	// may be set.
	PerCallBudget *budget.PerCallConfig

	// RetryConcurrency is Envoy's retry budget (package budget,
	// Concurrency), consulted after Retry (and Budget) allowed a retry:
	// the retries in flight may not exceed BudgetPercent of the calls in
	// flight through this Caller, nor fall below MinRetryConcurrency. A
	// retry holds its place until the call's next retry decision or its
	// end, as in the simulator. It requires Retry.
	RetryConcurrency *budget.ConcurrencyConfig

	// Timeout is the per-attempt timeout (package timeout): each attempt
	// runs under a context whose deadline is the earlier of the attempt's
	// timeout and the request's deadline.
	Timeout *timeout.Config

	// Deadline, if set, shortens the request's deadline (from the context)
	// to the slice package deadline allots to a call of class Class: what
	// is left minus Reserve, and at most NonCriticalCap for a NonCritical
	// call. A call whose slice is empty is refused with DeadlineExceeded.
	Deadline *deadline.Config
	// Class is the call's class for Deadline. Default deadline.Critical.
	Class deadline.Class

	// Fallback, if set, answers from the degradation hierarchy when the
	// call path fails or the feature is killed (package fallback).
	Fallback *Fallback

	// Classify maps an error returned by fn, while its context is live, to
	// an outcome. Nil means Classify.
	Classify func(error) policies.Outcome

	// OnBreakerTransition, if set, is called with every breaker transition,
	// after the Caller's mutex has been released, in the goroutine of the
	// call that observed it. Concurrent calls may deliver transitions out
	// of order; Transition.At and the From/To states tell the true order.
	OnBreakerTransition func(breaker.Transition)
	// Hooks are callbacks for metrics: attempt start and end, breaker
	// transitions, local refusals. Nil hooks cost nothing.
	Hooks Hooks
	// OnFallbackAlert, if set, is called when the fallback alert is raised
	// or cleared, after the Caller's mutex has been released.
	OnFallbackAlert func(fallback.AlertChange)
}

// Fallback configures the degradation hierarchy of a Caller.
type Fallback struct {
	// Feature configures the hierarchy, the kill switch and the alert.
	Feature fallback.Config
	// Cached, if set, reports the cached value the Stale level could serve.
	// Nil means none (the Stale level is skipped).
	Cached func(ctx context.Context) fallback.Cached
	// Serve produces the degraded answer at level (Stale, Generic or
	// Empty), given the error that made the main path fail (an *Error
	// wrapping ErrKilled for a killed feature). A nil result means the
	// answer was served at that level; an error moves on to the next
	// level. It must be cheaper than the main path and share no resources
	// with it. Nil means Do and DoLevel serve no degraded answer (every
	// level fails); DoFallback passes its own typed fallback instead.
	Serve func(ctx context.Context, level fallback.Level, cause error) error
}

// validate reports the first problem of c that the policy constructors do not
// check themselves.
func (c *Config) validate() error {
	if c.Shed != nil && c.ShedCapacity < 1 {
		return fmt.Errorf("%w: ShedCapacity %d with Shed set, want >= 1", ErrInvalidConfig, c.ShedCapacity)
	}
	if c.quota() != (budget.QuotaConfig{}) && c.Retry == nil {
		return fmt.Errorf("%w: a retry budget (Budget, AWSQuota or PerCallBudget) without Retry", ErrInvalidConfig)
	}
	if c.Class != deadline.Critical && c.Class != deadline.NonCritical {
		return fmt.Errorf("%w: unknown deadline Class %d", ErrInvalidConfig, c.Class)
	}
	if c.Bulkhead != nil && c.BulkheadPool != nil {
		return fmt.Errorf("%w: both Bulkhead and BulkheadPool set, want at most one", ErrInvalidConfig)
	}
	if c.RetryConcurrency != nil && c.Retry == nil {
		return fmt.Errorf("%w: RetryConcurrency without Retry", ErrInvalidConfig)
	}
	if c.Placement > RetriesOnly {
		return fmt.Errorf("%w: unknown breaker Placement %d", ErrInvalidConfig, c.Placement)
	}
	if (c.Placement == RetriesOnly) != (c.RetryBreaker != nil) || (c.RetryBreaker != nil && (c.Breaker != nil || c.Retry == nil)) {
		return fmt.Errorf("%w: Placement RetriesOnly goes with RetryBreaker and Retry, and without Breaker", ErrInvalidConfig)
	}
	return nil
}

// quota is the retry budget the config selects, of whichever kind.
func (c *Config) quota() budget.QuotaConfig {
	return budget.QuotaConfig{Bucket: c.Budget, AWS: c.AWSQuota, PerCall: c.PerCallBudget}
}

package topology

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/dist"
	"github.com/ressim/ressim/sim/policies/breaker"
	"github.com/ressim/ressim/sim/policies/budget"
	"github.com/ressim/ressim/sim/policies/bulkhead"
	"github.com/ressim/ressim/sim/policies/codel"
	"github.com/ressim/ressim/sim/policies/fallback"
	"github.com/ressim/ressim/sim/policies/health"
	"github.com/ressim/ressim/sim/policies/lifo"
	"github.com/ressim/ressim/sim/policies/limit"
	"github.com/ressim/ressim/sim/policies/outlier"
	"github.com/ressim/ressim/sim/policies/shed"
)

// CallGuards are the resilience policies around one call site, applied
// outside in as «Устойчивость: circuit breaker, retry, bulkhead,
// backpressure, деградация», section 8, orders them: bulkhead, circuit
// breaker, retry (with its budget), timeout, the call; a fallback answers
// what fails.
// Each is optional (nil). Their numeric fields must lie in the ranges of
// SettingRanges (the bulkhead.*, breaker.*, retry_budget.* and fallback.*
// settings), which may be narrower than the policy package's Validate.
type CallGuards struct {
	// Bulkhead bounds the calls in flight through the site, with a bounded
	// wait for a slot (package bulkhead, semaphore flavour).
	Bulkhead *bulkhead.SemaphoreConfig
	// BulkheadPool is the dedicated-pool flavour instead (Hystrix's thread
	// pool): a fixed number of slots and a queue bounded in length, not in
	// time.
	BulkheadPool *bulkhead.PoolConfig
	// Breaker opens the circuit on failures (package breaker). One breaker
	// per call site, that is per (caller, callee, operation).
	Breaker *breaker.Config
	// BreakerInsideRetry puts the breaker inside the retry loop, so that
	// every attempt passes it, instead of around the whole call: the wrong
	// order, kept to show why it is wrong.
	BreakerInsideRetry bool
	// RetryBreaker is a breaker that gates retries only (placement
	// "retries_only"; package breaker's RetryGate, jirfag's retry circuit
	// breaker): every attempt's outcome is recorded, first attempts always
	// go, and a retry is refused (retry.ReasonBreaker) while the failure
	// rate of the recent attempts is at or above its threshold. A call has
	// Breaker or RetryBreaker, not both.
	RetryBreaker *breaker.RetryGateConfig
	// Budget limits retries with a token bucket (package budget).
	Budget *budget.Config
	// AWSQuota limits retries with the AWS SDK's standard retry quota
	// (budget.AWS) instead.
	AWSQuota *budget.AWSConfig
	// PerCallBudget limits retries with Brooker's per-call bucket
	// (budget.PerCall) instead.
	PerCallBudget *budget.PerCallConfig
	// RetryConcurrency limits retries Envoy's way: retries in flight at
	// most a share of the calls in flight through the site.
	RetryConcurrency *budget.ConcurrencyConfig
	// Fallback answers a call that failed in the end (error, timeout,
	// rejection, open breaker, full bulkhead) with a degraded answer.
	Fallback *FallbackConfig
}

// FallbackConfig is a call's fallback (package fallback's hierarchy).
type FallbackConfig struct {
	// Level is the answer served: fallback.Stale, Generic or Empty.
	Level fallback.Level
	// Latency of producing the fallback answer; the zero Dist means none.
	// A fallback must be cheaper than the main path.
	Latency dist.Dist
	// FailRate is the probability that the fallback itself fails (it went
	// to the same broken cache, say): the call then fails after all.
	FailRate float64
}

// Admission are the policies at a service's door and queue. Each is
// optional (nil); the shed.* and limit.* settings of SettingRanges range
// their numeric fields.
type Admission struct {
	// Shed rejects requests by priority class, lowest first, as the
	// instance fills (package shed).
	Shed *shed.Config
	// CoDel drops requests that waited too long at dequeue (RFC 8289,
	// package codel).
	CoDel *codel.Config
	// LIFO serves the queue adaptively: FIFO normally, LIFO under overload,
	// with Facebook's controlled-delay timeouts (package lifo).
	LIFO *lifo.Config
	// Limit is an adaptive concurrency limit on the requests each
	// instance holds (package limit).
	Limit *LimitConfig
}

// LimitConfig selects an adaptive concurrency-limit algorithm.
type LimitConfig struct {
	// Algorithm is "aimd", "gradient2" or "vegas".
	Algorithm string
	AIMD      limit.AIMDConfig
	Gradient2 limit.Gradient2Config
	Vegas     limit.VegasConfig
}

// LimitAlgorithms lists the algorithms' names.
func LimitAlgorithms() []string { return []string{"aimd", "gradient2", "vegas"} }

// Validate reports whether the algorithm and its bounds are valid.
func (c *LimitConfig) Validate() error {
	_, err := c.build()
	return err
}

func (c *LimitConfig) build() (limit.Algorithm, error) {
	switch c.Algorithm {
	case "aimd":
		return limit.NewAIMD(c.AIMD)
	case "gradient2":
		return limit.NewGradient2(c.Gradient2)
	case "vegas":
		v, err := limit.NewVegas(c.Vegas)
		if err != nil {
			return nil, err
		}
		return limit.NewWindowed(limit.DefaultWindowedConfig(), v)
	}
	return nil, fmt.Errorf("unknown limit algorithm %q", c.Algorithm)
}

// ReadinessConfig is a readiness probe on each instance of a service: the
// balancers of its callers send nothing to an instance that is not ready.
type ReadinessConfig struct {
	// Probe is the Kubernetes-style probe timing (period, thresholds).
	Probe health.Config
	// DependsOn names dependencies whose health the probe includes: the
	// probe fails while one of them has no instance up and ready. This is
	// the trap of the resilience article, section 11: a non-critical dependency's outage
	// makes every instance unready at once. Empty means the probe checks
	// the instance itself only: up, not frozen, and answering within the
	// probe's timeout (it would not wait in the queue longer than that).
	DependsOn []string
}

// LivenessConfig is a liveness probe on each instance of a service: an
// instance that fails it FailureThreshold times in a row is restarted
// (its work lost, as in a crash) and comes back RestartTime later.
type LivenessConfig struct {
	Probe health.Config
	// RestartTime is how long a restart takes; 0 means 10 s.
	RestartTime time.Duration
}

// ServiceGuards are how a service's instances are watched by their
// callers; the outlier.*, readiness.* and liveness.* settings of
// SettingRanges range their numeric fields.
type ServiceGuards struct {
	// Outlier ejects failing instances from every caller's balancer
	// (Envoy outlier detection, package outlier).
	Outlier *outlier.Config
	// Readiness removes unready instances from the balancers.
	Readiness *ReadinessConfig
	// Liveness restarts instances that fail it. Its probe is an HTTP
	// request like any other: it fails while the instance is frozen, or
	// when it would wait in the queue longer than the probe's timeout (the
	// oldest queued request has waited that long), which is how liveness
	// probes restart overloaded instances and make an overload worse.
	Liveness *LivenessConfig
}

func (s *ServiceConfig) validatePolicies(svcs map[string]int) error {
	if err := s.checkPolicyRanges(); err != nil {
		return err
	}
	a := &s.Admission
	if a.Shed != nil {
		if err := a.Shed.Validate(); err != nil {
			return err
		}
	}
	if a.CoDel != nil {
		if err := a.CoDel.Validate(); err != nil {
			return err
		}
	}
	if a.LIFO != nil {
		if err := a.LIFO.Validate(); err != nil {
			return err
		}
		if a.CoDel != nil {
			return fmt.Errorf("codel and lifo both manage the queue; choose one (lifo has its own controlled delay)")
		}
	}
	if a.Limit != nil {
		if _, err := a.Limit.build(); err != nil {
			return err
		}
	}
	g := &s.Guards
	if g.Outlier != nil {
		if err := g.Outlier.Validate(); err != nil {
			return err
		}
	}
	if l := g.Liveness; l != nil {
		if err := l.Probe.Validate(); err != nil {
			return err
		}
		if l.RestartTime < 0 {
			return fmt.Errorf("liveness restart time must be >= 0")
		}
	}
	if r := g.Readiness; r != nil {
		if err := r.Probe.Validate(); err != nil {
			return err
		}
		for _, d := range r.DependsOn {
			if _, ok := svcs[d]; !ok {
				return fmt.Errorf("readiness depends on unknown service %q", d)
			}
		}
	}
	return nil
}

// validate checks a call's guards: each policy's own configuration, and
// the combinations the model does not support.
func (g *CallGuards) validate() error {
	if err := g.checkRanges(); err != nil {
		return err
	}
	if g.Bulkhead != nil {
		if err := g.Bulkhead.Validate(); err != nil {
			return err
		}
	}
	if g.Breaker != nil {
		if err := g.Breaker.Validate(); err != nil {
			return err
		}
	}
	if g.RetryBreaker != nil {
		if g.Breaker != nil {
			return fmt.Errorf("a call has one breaker: around the call or the attempts, or for retries only")
		}
		if err := g.RetryBreaker.Validate(); err != nil {
			return err
		}
	}
	if q := g.quota(); q != (budget.QuotaConfig{}) {
		if _, err := budget.NewQuota(q); err != nil {
			return err
		}
	}
	if f := g.Fallback; f != nil && (!f.Level.Degraded() || !(f.FailRate >= 0 && f.FailRate <= 1)) {
		return fmt.Errorf("fallback level must be stale, generic or empty and fail_rate in [0, 1]")
	}
	if g.Bulkhead != nil && g.BulkheadPool != nil {
		return fmt.Errorf("a call has one bulkhead: semaphore or pool")
	}
	if g.BulkheadPool != nil {
		if err := g.BulkheadPool.Validate(); err != nil {
			return err
		}
	}
	if g.RetryConcurrency != nil {
		if err := g.RetryConcurrency.Validate(); err != nil {
			return err
		}
		if g.HasTokenBudget() {
			return fmt.Errorf("a call has one retry budget: tokens or concurrency")
		}
	}
	return nil
}

// HasTokenBudget reports whether the call has a token budget of any kind
// (Budget, AWSQuota or PerCallBudget): one that retries and hedges draw on.
func (g *CallGuards) HasTokenBudget() bool {
	return g.Budget != nil || g.AWSQuota != nil || g.PerCallBudget != nil
}

// quota is the call's token budget as package budget selects it.
func (g *CallGuards) quota() budget.QuotaConfig {
	return budget.QuotaConfig{Bucket: g.Budget, AWS: g.AWSQuota, PerCall: g.PerCallBudget}
}

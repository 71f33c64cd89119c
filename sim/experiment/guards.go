package experiment

import (
	"time"

	"github.com/ressim/ressim/sim/policies"
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
	"github.com/ressim/ressim/sim/topology"
)

// Each reader below starts from the policy package's DefaultConfig (mostly
// the numbers of «Устойчивость: circuit breaker, retry, bulkhead,
// backpressure, деградация», sections 2 to 8; see the Sources section of
// docs/policies.md), applies the keys present, and lets the
// package's Validate have the last word, reported at the table.

// durKey applies one optional duration key to *dst (rangedInt and
// rangedNum do the same for numbers, with their ranges from topology's
// range table).
func durKey(t *table, k string, dst *time.Duration, ok *bool) {
	if v, good := t.duration(k, false, 0); good {
		*dst = v
	} else if t.has(k) {
		*ok = false
	}
}

func (r *reader) validated(t *table, err error, ok bool) bool {
	if ok && err != nil {
		r.errorf(t.path, "%v", err)
		return false
	}
	return ok
}

// guards reads the call guards of a client or a call.
func (r *reader) guards(t *table) (topology.CallGuards, bool) {
	var g topology.CallGuards
	ok := true
	ok = r.guardBulkhead(t, &g) && ok
	ok = r.guardBreaker(t, &g) && ok
	ok = r.guardRetryBudget(t, &g) && ok
	ok = r.guardFallback(t, &g) && ok
	return g, ok
}

// guardBulkhead reads the optional [bulkhead] sub-table into *g.
func (r *reader) guardBulkhead(t *table, g *topology.CallGuards) bool {
	bt, has := t.sub("bulkhead", false)
	if !has {
		return !t.has("bulkhead")
	}
	ok := true
	good := true
	kind := 0
	if k, kok := bt.oneOf("kind", []string{"semaphore", "pool"}); kok {
		kind = k
	} else if bt.has("kind") {
		good = false
	}
	if kind == 1 {
		c := bulkhead.DefaultPoolConfig()
		rangedInt(bt, "max_threads", topology.SettingBulkheadMaxThreads.Range(), &c.MaxThreadPoolSize, &good)
		rangedInt(bt, "queue", topology.SettingBulkheadQueue.Range(), &c.QueueCapacity, &good)
		bt.done("kind", "max_threads", "queue")
		g.BulkheadPool = &c
		ok = r.validated(bt, c.Validate(), good) && ok
	} else {
		c := bulkhead.DefaultSemaphoreConfig()
		rangedInt(bt, "max_concurrent", topology.SettingBulkheadMaxConcurrent.Range(), &c.MaxConcurrentCalls, &good)
		durKey(bt, "max_wait", &c.MaxWaitDuration, &good)
		bt.done("kind", "max_concurrent", "max_wait")
		g.Bulkhead = &c
		ok = r.validated(bt, c.Validate(), good) && ok
	}
	return ok
}

// guardBreaker reads the optional [breaker] sub-table into *g.
func (r *reader) guardBreaker(t *table, g *topology.CallGuards) bool {
	bt, has := t.sub("breaker", false)
	if !has {
		return !t.has("breaker")
	}
	bt.anyKeys = breakerKeys
	good := true
	p, pok := bt.oneOf("placement", []string{"outside_retry", "inside_retry", "retries_only"})
	if !pok && bt.has("placement") {
		good = false
	}
	if pok && p == 2 {
		return r.guardRetryBreaker(bt, g, good)
	}
	ok := true
	c := breaker.DefaultConfig()
	if w, wok := bt.oneOf("window", []string{"count", "time"}); wok {
		c.SlidingWindowType = breaker.WindowType(w)
	} else if bt.has("window") {
		good = false
	}
	if bt.has("window_duration") {
		switch {
		case c.SlidingWindowType != breaker.TimeBased:
			bt.get("window_duration")
			r.errorf(bt.key("window_duration"), "window_duration needs window = \"time\"")
			good = false
		case bt.has("window_size"):
			bt.get("window_duration")
			r.errorf(bt.key("window_duration"), "give window_size (seconds) or window_duration, not both")
			good = false
		default:
			if n, b, wok := r.timeWindow(bt); wok {
				c.SlidingWindowSize, c.Bucket = n, b
			} else {
				good = false
			}
		}
	}
	rangedInt(bt, "window_size", topology.SettingBreakerWindowSize.Range(), &c.SlidingWindowSize, &good)
	rangedInt(bt, "minimum_calls", topology.SettingBreakerMinimumCalls.Range(), &c.MinimumNumberOfCalls, &good)
	rangedNum(bt, "failure_rate", topology.SettingBreakerFailureRate.Range(), &c.FailureRateThreshold, &good)
	rangedNum(bt, "slow_call_rate", topology.SettingBreakerSlowCallRate.Range(), &c.SlowCallRateThreshold, &good)
	durKey(bt, "slow_call_duration", &c.SlowCallDurationThreshold, &good)
	rangedInt(bt, "half_open_calls", topology.SettingBreakerHalfOpenCalls.Range(), &c.PermittedNumberOfCallsInHalfOpenState, &good)
	durKey(bt, "open_pause", &c.WaitDurationInOpenState, &good)
	durKey(bt, "max_open_pause", &c.MaxWaitDurationInOpenState, &good)
	if !bt.has("max_open_pause") && c.MaxWaitDurationInOpenState < c.WaitDurationInOpenState {
		c.MaxWaitDurationInOpenState = c.WaitDurationInOpenState
	}
	g.BreakerInsideRetry = pok && p == 1
	bt.done(breakerKeys...)
	g.Breaker = &c
	ok = r.validated(bt, c.Validate(), good) && ok
	return ok
}

// guardRetryBudget reads the optional [retry_budget] sub-table into *g.
func (r *reader) guardRetryBudget(t *table, g *topology.CallGuards) bool {
	bt, has := t.sub("retry_budget", false)
	if !has {
		return !t.has("retry_budget")
	}
	ok := true
	good := true
	kind := 0
	if k, kok := bt.oneOf("kind", []string{"tokens", "concurrency", "aws_standard", "per_call_tokens"}); kok {
		kind = k
	} else if bt.has("kind") {
		good = false
	}
	switch kind {
	case 2:
		c := budget.DefaultAWSConfig()
		rangedInt(bt, "capacity", topology.SettingAWSCapacity.Range(), &c.Capacity, &good)
		rangedInt(bt, "retry_cost", topology.SettingAWSRetryCost.Range(), &c.RetryCost, &good)
		rangedInt(bt, "timeout_cost", topology.SettingAWSTimeoutCost.Range(), &c.TimeoutCost, &good)
		rangedInt(bt, "success_refund", topology.SettingAWSSuccessRefund.Range(), &c.SuccessRefund, &good)
		bt.done("kind", "capacity", "retry_cost", "timeout_cost", "success_refund")
		g.AWSQuota = &c
		return r.validated(bt, c.Validate(), good) && ok
	case 3:
		c := budget.DefaultPerCallConfig()
		rangedNum(bt, "earn_per_call", topology.SettingPerCallEarn.Range(), &c.EarnPerCall, &good)
		rangedNum(bt, "capacity", topology.SettingPerCallCapacity.Range(), &c.Capacity, &good)
		bt.done("kind", "earn_per_call", "capacity")
		g.PerCallBudget = &c
		return r.validated(bt, c.Validate(), good) && ok
	}
	if kind == 1 {
		c := budget.DefaultConcurrencyConfig()
		rangedNum(bt, "budget_percent", topology.SettingBudgetPercent.Range(), &c.BudgetPercent, &good)
		rangedInt(bt, "min_retry_concurrency", topology.SettingBudgetMinRetryConcurrency.Range(), &c.MinRetryConcurrency, &good)
		bt.done("kind", "budget_percent", "min_retry_concurrency")
		g.RetryConcurrency = &c
		ok = r.validated(bt, c.Validate(), good) && ok
	} else {
		c := budget.DefaultConfig()
		rangedNum(bt, "ratio", topology.SettingBudgetRatio.Range(), &c.Ratio, &good)
		rangedNum(bt, "capacity", topology.SettingBudgetCapacity.Range(), &c.Capacity, &good)
		rangedNum(bt, "min_retries_per_second", topology.SettingBudgetMinRetriesPerSec.Range(), &c.MinRetriesPerSec, &good)
		if e, eok := bt.oneOf("earn", []string{"every_success", "first_attempt"}); eok {
			c.Earn = budget.Earn(e)
		} else if bt.has("earn") {
			good = false
		}
		bt.done("kind", "ratio", "capacity", "min_retries_per_second", "earn")
		g.Budget = &c
		ok = r.validated(bt, c.Validate(), good) && ok
	}
	return ok
}

// guardFallback reads the optional [fallback] sub-table into *g.
func (r *reader) guardFallback(t *table, g *topology.CallGuards) bool {
	ft, has := t.sub("fallback", false)
	if !has {
		return !t.has("fallback")
	}
	ok := true
	c := &topology.FallbackConfig{Level: fallback.Generic}
	good := true
	if l, lok := ft.oneOf("level", []string{"stale", "generic", "empty"}); lok {
		c.Level, _ = fallback.ParseLevel([]string{"stale", "generic", "empty"}[l])
	} else if ft.has("level") {
		good = false
	}
	if lt, lok := ft.sub("latency", false); lok {
		d, dok := r.dist(lt)
		c.Latency = d
		good = good && dok
	} else if ft.has("latency") {
		good = false
	}
	rangedNum(ft, "fail_rate", topology.SettingFallbackFailRate.Range(), &c.FailRate, &good)
	ft.done("level", "latency", "fail_rate")
	g.Fallback = c
	ok = ok && good
	return ok
}

// admission reads a service's door and queue policies.
func (r *reader) admission(t *table, queueCap int) (topology.Admission, bool) {
	var a topology.Admission
	ok := true
	ok = r.admitShed(t, &a, queueCap) && ok
	ok = r.admitCodel(t, &a, queueCap) && ok
	ok = r.admitLifo(t, &a, queueCap) && ok
	ok = r.admitLimit(t, &a, queueCap) && ok
	return a, ok
}

// admitShed reads the optional [shed] sub-table into *a.
func (r *reader) admitShed(t *table, a *topology.Admission, queueCap int) bool {
	st, has := t.sub("shed", false)
	if !has {
		return !t.has("shed")
	}
	ok := true
	c := shed.DefaultConfig()
	good := true
	classes := [policies.NumPriorities]topology.Setting{topology.SettingShedCritical, topology.SettingShedNormal, topology.SettingShedBackground}
	for p, k := range classes {
		rangedNum(st, k.Key(), k.Range(), &c.Threshold[p], &good)
	}
	durKey(st, "retry_after", &c.RetryAfter, &good)
	st.done("critical", "normal", "background", "retry_after")
	a.Shed = &c
	ok = r.validated(st, c.Validate(), good) && ok
	return ok
}

// admitCodel reads the optional [codel] sub-table into *a.
func (r *reader) admitCodel(t *table, a *topology.Admission, queueCap int) bool {
	ct, has := t.sub("codel", false)
	if !has {
		return !t.has("codel")
	}
	ok := true
	c := codel.DefaultConfig()
	good := true
	durKey(ct, "target", &c.Target, &good)
	durKey(ct, "interval", &c.Interval, &good)
	ct.done("target", "interval")
	a.CoDel = &c
	ok = r.validated(ct, c.Validate(), good) && ok
	return ok
}

// admitLifo reads the optional [lifo] sub-table into *a.
func (r *reader) admitLifo(t *table, a *topology.Admission, queueCap int) bool {
	lt, has := t.sub("lifo", false)
	if !has {
		return !t.has("lifo")
	}
	ok := true
	c := lifo.DefaultConfig()
	good := true
	if d, dok := lt.oneOf("discipline", []string{"adaptive", "fifo", "lifo"}); dok {
		c.Discipline = lifo.Discipline(d)
	} else if lt.has("discipline") {
		good = false
	}
	durKey(lt, "interval", &c.Interval, &good)
	durKey(lt, "short_timeout", &c.ShortTimeout, &good)
	if v, vok := lt.boolean("controlled_delay", c.ControlledDelay); vok {
		c.ControlledDelay = v
	}
	lt.done("discipline", "interval", "short_timeout", "controlled_delay")
	if queueCap < 1 {
		r.errorf(lt.path, "adaptive LIFO needs a bounded queue: set queue_capacity >= 1")
		good = false
	}
	if t.has("codel") {
		r.errorf(lt.path, "codel and lifo both manage the queue; choose one (lifo has its own controlled delay)")
		good = false
	}
	a.LIFO = &c
	ok = r.validated(lt, c.Validate(), good) && ok
	return ok
}

// admitLimit reads the optional [limit] sub-table into *a.
func (r *reader) admitLimit(t *table, a *topology.Admission, queueCap int) bool {
	lt, has := t.sub("limit", false)
	if !has {
		return !t.has("limit")
	}
	ok := true
	c := &topology.LimitConfig{Algorithm: "aimd", AIMD: limit.DefaultAIMDConfig(),
		Gradient2: limit.DefaultGradient2Config(), Vegas: limit.DefaultVegasConfig()}
	good := true
	if i, iok := lt.oneOf("algorithm", topology.LimitAlgorithms()); iok {
		c.Algorithm = topology.LimitAlgorithms()[i]
	} else if lt.has("algorithm") {
		good = false
	}
	var initial, lo, hi int
	initial, lo, hi = c.AIMD.InitialLimit, c.AIMD.MinLimit, c.AIMD.MaxLimit
	rangedInt(lt, "initial", topology.SettingLimitInitial.Range(), &initial, &good)
	rangedInt(lt, "min", topology.SettingLimitMin.Range(), &lo, &good)
	rangedInt(lt, "max", topology.SettingLimitMax.Range(), &hi, &good)
	c.AIMD.InitialLimit, c.AIMD.MinLimit, c.AIMD.MaxLimit = initial, lo, hi
	c.Gradient2.InitialLimit, c.Gradient2.MinLimit, c.Gradient2.MaxLimit = initial, lo, hi
	c.Vegas.InitialLimit, c.Vegas.MinLimit, c.Vegas.MaxLimit = initial, lo, hi
	durKey(lt, "timeout", &c.AIMD.Timeout, &good)
	rangedNum(lt, "backoff_ratio", topology.SettingLimitBackoffRatio.Range(), &c.AIMD.BackoffRatio, &good)
	lt.done("algorithm", "initial", "min", "max", "timeout", "backoff_ratio")
	a.Limit = c
	ok = r.validated(lt, c.Validate(), good) && ok
	return ok
}

// serviceGuards reads how callers watch a service's instances.
func (r *reader) serviceGuards(t *table) (topology.ServiceGuards, bool) {
	var g topology.ServiceGuards
	ok := true
	if ot, has := t.sub("outlier", false); has {
		c := outlier.DefaultConfig()
		good := true
		rangedInt(ot, "consecutive_5xx", topology.SettingOutlierConsecutive5xx.Range(), &c.Consecutive5xx, &good)
		durKey(ot, "interval", &c.Interval, &good)
		durKey(ot, "base_ejection_time", &c.BaseEjectionTime, &good)
		durKey(ot, "max_ejection_time", &c.MaxEjectionTime, &good)
		rangedInt(ot, "max_ejection_percent", topology.SettingOutlierMaxEjection.Range(), &c.MaxEjectionPercent, &good)
		ot.done("consecutive_5xx", "interval", "base_ejection_time", "max_ejection_time", "max_ejection_percent")
		g.Outlier = &c
		ok = r.validated(ot, c.Validate(), good) && ok
	} else if t.has("outlier") {
		ok = false
	}
	if lt, has := t.sub("liveness", false); has {
		c := &topology.LivenessConfig{Probe: health.DefaultConfig(), RestartTime: 10 * time.Second}
		good := true
		durKey(lt, "period", &c.Probe.Period, &good)
		durKey(lt, "timeout", &c.Probe.Timeout, &good)
		rangedInt(lt, "failure_threshold", topology.SettingLivenessFailures.Range(), &c.Probe.FailureThreshold, &good)
		durKey(lt, "restart_time", &c.RestartTime, &good)
		lt.done("period", "timeout", "failure_threshold", "restart_time")
		g.Liveness = c
		ok = r.validated(lt, c.Probe.Validate(), good) && ok
	} else if t.has("liveness") {
		ok = false
	}
	if rt, has := t.sub("readiness", false); has {
		c := &topology.ReadinessConfig{Probe: health.DefaultConfig()}
		good := true
		durKey(rt, "period", &c.Probe.Period, &good)
		durKey(rt, "timeout", &c.Probe.Timeout, &good)
		rangedInt(rt, "failure_threshold", topology.SettingReadinessFailures.Range(), &c.Probe.FailureThreshold, &good)
		rangedInt(rt, "success_threshold", topology.SettingReadinessSuccesses.Range(), &c.Probe.SuccessThreshold, &good)
		if deps, dok := rt.strings("depends_on"); dok {
			c.DependsOn = deps
			for _, d := range deps {
				r.deps = append(r.deps, callRef{path: rt.key("depends_on"), service: d})
			}
		} else if rt.has("depends_on") {
			good = false
		}
		rt.done("period", "timeout", "failure_threshold", "success_threshold", "depends_on")
		g.Readiness = c
		ok = r.validated(rt, c.Probe.Validate(), good) && ok
	} else if t.has("readiness") {
		ok = false
	}
	return g, ok
}

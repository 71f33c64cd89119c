package topology

import (
	"time"

	"github.com/ressim/ressim/sim/policies/breaker"
	"github.com/ressim/ressim/sim/policies/budget"
	"github.com/ressim/ressim/sim/policies/bulkhead"
	"github.com/ressim/ressim/sim/policies/fallback"
	"github.com/ressim/ressim/sim/policies/health"
	"github.com/ressim/ressim/sim/policies/hedge"
	"github.com/ressim/ressim/sim/policies/limit"
	"github.com/ressim/ressim/sim/policies/outlier"
	"github.com/ressim/ressim/sim/policies/retry"
	"github.com/ressim/ressim/sim/policies/shed"
)

// rangeBase is a valid configuration with a client calling front, which
// calls back: each setter of settingSetters puts one value in it.
func rangeBase() Config {
	work := Step{Kind: WorkStep, Work: expo(10 * ms)}
	call := Step{Kind: CallStep, Calls: []CallConfig{{Service: "back", Critical: true}}}
	return Config{
		Name: "ranges", Duration: 100 * time.Second, Seed: 1,
		Clients: []ClientConfig{{Name: "users", Target: "front", Rate: 10}},
		Services: []ServiceConfig{
			{Name: "front", Workers: 10, QueueCapacity: -1, Steps: []Step{work, call}},
			{Name: "back", Workers: 10, QueueCapacity: -1, Steps: []Step{work}},
		},
	}
}

// theCall is front's call to back; back is the service the service
// settings go to.
func theCall(c *Config) *CallConfig     { return &c.Services[0].Steps[1].Calls[0] }
func back(c *Config) *ServiceConfig     { return &c.Services[1] }
func guards(c *Config) *CallGuards      { return &theCall(c).Policy.Guards }
func addFault(c *Config, f FaultConfig) { c.Faults = append(c.Faults, f) }
func during(k FaultKind, t string) FaultConfig {
	return FaultConfig{Kind: k, Target: t, Instance: -1, Start: 10 * time.Second, End: 20 * time.Second, Multiply: 1}
}

// settingSetters puts x into the field of each setting of the range
// table, with the fields around it valid for every x in the setting's
// range (a limit's min with an initial and a max that fit it).
var settingSetters = map[Setting]func(c *Config, x float64){
	SettingRecoveryThreshold: func(c *Config, x float64) { c.Recovery.Threshold = x },
	SettingRecoveryAlpha:     func(c *Config, x float64) { c.Recovery.Alpha = x },
	SettingClientRate:        func(c *Config, x float64) { c.Clients[0].Rate = x },
	SettingScheduleRate:      func(c *Config, x float64) { c.Clients[0].Schedule = []RatePoint{{At: 0, Rate: x}} },
	SettingClientUsers: func(c *Config, x float64) {
		c.Clients[0].Users, c.Clients[0].ThinkTime = int(x), expo(time.Second)
	},
	SettingInstances:       func(c *Config, x float64) { back(c).Instances = int(x) },
	SettingWorkers:         func(c *Config, x float64) { back(c).Workers = int(x) },
	SettingMaxInFlight:     func(c *Config, x float64) { back(c).Mode, back(c).MaxInFlight = Async, int(x) },
	SettingQueueCapacity:   func(c *Config, x float64) { back(c).QueueCapacity = int(x) },
	SettingContention:      func(c *Config, x float64) { back(c).Contention = x },
	SettingCacheHitRatio:   func(c *Config, x float64) { back(c).Cache = &CacheConfig{HitRatio: x, Keys: 100} },
	SettingCacheKeys:       func(c *Config, x float64) { back(c).Cache = &CacheConfig{HitRatio: 0.5, Keys: int(x)} },
	SettingCallProbability: func(c *Config, x float64) { theCall(c).Probability = x },
	SettingCallWeight: func(c *Config, x float64) {
		st := &c.Services[0].Steps[1]
		st.Kind = ChooseStep
		st.Calls = []CallConfig{{Service: "back", Critical: true, Weight: x}, {Service: "back", Critical: true, Weight: 1}}
	},
	SettingRetryAttempts: func(c *Config, x float64) {
		r := retry.DefaultConfig()
		r.MaxAttempts = int(x)
		theCall(c).Policy.Retry = r
	},
	SettingHedgeAttempts: func(c *Config, x float64) {
		h := hedge.DefaultConfig()
		h.MaxAttempts = int(x)
		theCall(c).Policy.Hedge = h
	},
	SettingHedgeInitialRequests: func(c *Config, x float64) {
		h := hedge.DefaultConfig()
		h.MaxAttempts, h.InitialRequests = hedge.MaxMaxAttempts, int(x)
		theCall(c).Policy.Hedge = h
	},
	SettingHedgeAdditionalChance: func(c *Config, x float64) {
		h := hedge.DefaultConfig()
		h.AdditionalChance = x
		theCall(c).Policy.Hedge = h
	},
	SettingBulkheadMaxConcurrent: func(c *Config, x float64) {
		guards(c).Bulkhead = &bulkhead.SemaphoreConfig{MaxConcurrentCalls: int(x)}
	},
	SettingBulkheadMaxThreads: func(c *Config, x float64) {
		guards(c).BulkheadPool = &bulkhead.PoolConfig{MaxThreadPoolSize: int(x), QueueCapacity: 10}
	},
	SettingBulkheadQueue: func(c *Config, x float64) {
		guards(c).BulkheadPool = &bulkhead.PoolConfig{MaxThreadPoolSize: 10, QueueCapacity: int(x)}
	},
	SettingBreakerWindowSize:      breakerSetter(func(b *breaker.Config, x float64) { b.SlidingWindowSize = int(x) }),
	SettingBreakerMinimumCalls:    breakerSetter(func(b *breaker.Config, x float64) { b.MinimumNumberOfCalls = int(x) }),
	SettingBreakerFailureRate:     breakerSetter(func(b *breaker.Config, x float64) { b.FailureRateThreshold = x }),
	SettingBreakerSlowCallRate:    breakerSetter(func(b *breaker.Config, x float64) { b.SlowCallRateThreshold = x }),
	SettingBreakerHalfOpenCalls:   breakerSetter(func(b *breaker.Config, x float64) { b.PermittedNumberOfCallsInHalfOpenState = int(x) }),
	SettingBudgetRatio:            budgetSetter(func(b *budget.Config, x float64) { b.Ratio = x }),
	SettingBudgetCapacity:         budgetSetter(func(b *budget.Config, x float64) { b.Capacity = x }),
	SettingBudgetMinRetriesPerSec: budgetSetter(func(b *budget.Config, x float64) { b.MinRetriesPerSec = x }),
	SettingBudgetPercent: func(c *Config, x float64) {
		guards(c).RetryConcurrency = &budget.ConcurrencyConfig{BudgetPercent: x, MinRetryConcurrency: 3}
	},
	SettingBudgetMinRetryConcurrency: func(c *Config, x float64) {
		guards(c).RetryConcurrency = &budget.ConcurrencyConfig{BudgetPercent: 20, MinRetryConcurrency: int(x)}
	},
	SettingAWSCapacity:      awsSetter(func(q *budget.AWSConfig, x float64) { q.Capacity = int(x) }),
	SettingAWSRetryCost:     awsSetter(func(q *budget.AWSConfig, x float64) { q.RetryCost = int(x) }),
	SettingAWSTimeoutCost:   awsSetter(func(q *budget.AWSConfig, x float64) { q.TimeoutCost = int(x) }),
	SettingAWSSuccessRefund: awsSetter(func(q *budget.AWSConfig, x float64) { q.SuccessRefund = int(x) }),
	SettingPerCallEarn: func(c *Config, x float64) {
		guards(c).PerCallBudget = &budget.PerCallConfig{EarnPerCall: x, Capacity: 5}
	},
	SettingPerCallCapacity: func(c *Config, x float64) {
		guards(c).PerCallBudget = &budget.PerCallConfig{EarnPerCall: 0.1, Capacity: x}
	},
	SettingFallbackFailRate: func(c *Config, x float64) {
		guards(c).Fallback = &FallbackConfig{Level: fallback.Generic, FailRate: x}
	},
	SettingShedCritical:   shedSetter(func(x float64) [3]float64 { return [3]float64{x, x, x} }),
	SettingShedNormal:     shedSetter(func(x float64) [3]float64 { return [3]float64{1, x, x} }),
	SettingShedBackground: shedSetter(func(x float64) [3]float64 { return [3]float64{1, 1, x} }),
	SettingLimitInitial: limitSetter(func(a *limit.AIMDConfig, x float64) {
		a.InitialLimit, a.MinLimit, a.MaxLimit = int(x), 1, maxWindow
	}),
	SettingLimitMin: limitSetter(func(a *limit.AIMDConfig, x float64) {
		a.InitialLimit, a.MinLimit, a.MaxLimit = min(max(int(x), 1), maxWindow), int(x), maxWindow
	}),
	SettingLimitMax: limitSetter(func(a *limit.AIMDConfig, x float64) {
		a.InitialLimit, a.MinLimit, a.MaxLimit = 1, 1, int(x)
	}),
	SettingLimitBackoffRatio:     limitSetter(func(a *limit.AIMDConfig, x float64) { a.BackoffRatio = x }),
	SettingOutlierConsecutive5xx: outlierSetter(func(o *outlier.Config, x float64) { o.Consecutive5xx = int(x) }),
	SettingOutlierMaxEjection:    outlierSetter(func(o *outlier.Config, x float64) { o.MaxEjectionPercent = int(x) }),
	SettingReadinessFailures:     readinessSetter(func(p *health.Config, x float64) { p.FailureThreshold = int(x) }),
	SettingReadinessSuccesses:    readinessSetter(func(p *health.Config, x float64) { p.SuccessThreshold = int(x) }),
	SettingLivenessFailures: func(c *Config, x float64) {
		p := health.DefaultConfig()
		p.FailureThreshold = int(x)
		back(c).Guards.Liveness = &LivenessConfig{Probe: p}
	},
	SettingFaultInstance: func(c *Config, x float64) {
		back(c).Instances = MaxInstances
		f := during(LatencyFault, "back")
		f.Instance = int(x)
		addFault(c, f)
	},
	SettingLatencyMultiply: faultSetter(LatencyFault, "back", func(f *FaultConfig, x float64) { f.Multiply = x }),
	SettingLoadMultiply:    faultSetter(LoadFault, "users", func(f *FaultConfig, x float64) { f.Multiply = x }),
	SettingErrorRate:       faultSetter(ErrorFault, "back", func(f *FaultConfig, x float64) { f.Rate = x }),
	SettingCrashInstances:  faultSetter(CrashFault, "back", func(f *FaultConfig, x float64) { f.Count = int(x) }),
	SettingWorkersLost:     faultSetter(WorkersFault, "back", func(f *FaultConfig, x float64) { f.Count = int(x) }),
	SettingStickyShare: faultSetter(ErrorFault, "back", func(f *FaultConfig, x float64) {
		f.Rate, f.Sticky = 1, &StickyConfig{By: StickyByKey, Share: x}
	}),
	SettingStickyUsers: faultSetter(ErrorFault, "back", func(f *FaultConfig, x float64) {
		f.Rate, f.Sticky = 1, &StickyConfig{By: StickyByUser, Share: 0.1, Users: int(x)}
	}),
	SettingStickyKeys: faultSetter(LatencyFault, "back", func(f *FaultConfig, x float64) {
		f.Multiply, f.Sticky = 2, &StickyConfig{By: StickyByKey, Share: 0.1, Keys: int(x)}
	}),
}

func breakerSetter(set func(*breaker.Config, float64)) func(*Config, float64) {
	return func(c *Config, x float64) {
		b := breaker.DefaultConfig()
		set(&b, x)
		guards(c).Breaker = &b
	}
}

func budgetSetter(set func(*budget.Config, float64)) func(*Config, float64) {
	return func(c *Config, x float64) {
		b := budget.DefaultConfig()
		set(&b, x)
		guards(c).Budget = &b
	}
}

func shedSetter(thresholds func(float64) [3]float64) func(*Config, float64) {
	return func(c *Config, x float64) {
		s := shed.DefaultConfig()
		t := thresholds(x)
		copy(s.Threshold[:], t[:])
		back(c).Admission.Shed = &s
	}
}

func limitSetter(set func(*limit.AIMDConfig, float64)) func(*Config, float64) {
	return func(c *Config, x float64) {
		a := limit.DefaultAIMDConfig()
		set(&a, x)
		back(c).Admission.Limit = &LimitConfig{Algorithm: "aimd", AIMD: a}
	}
}

func outlierSetter(set func(*outlier.Config, float64)) func(*Config, float64) {
	return func(c *Config, x float64) {
		o := outlier.DefaultConfig()
		set(&o, x)
		back(c).Guards.Outlier = &o
	}
}

func readinessSetter(set func(*health.Config, float64)) func(*Config, float64) {
	return func(c *Config, x float64) {
		p := health.DefaultConfig()
		set(&p, x)
		back(c).Guards.Readiness = &ReadinessConfig{Probe: p}
	}
}

func faultSetter(k FaultKind, target string, set func(*FaultConfig, float64)) func(*Config, float64) {
	return func(c *Config, x float64) {
		f := during(k, target)
		set(&f, x)
		addFault(c, f)
	}
}

// awsSetter sets one field of a default AWS quota on the first call.
func awsSetter(set func(*budget.AWSConfig, float64)) func(*Config, float64) {
	return func(c *Config, x float64) {
		q := budget.DefaultAWSConfig()
		set(&q, x)
		guards(c).AWSQuota = &q
	}
}

package experiment

import (
	"time"

	"github.com/ressim/ressim/sim/policies/breaker"
	"github.com/ressim/ressim/sim/topology"
)

// breakerKeys are the keys of a [breaker] table with a Resilience4j
// breaker; retryBreakerKeys those of placement "retries_only".
var (
	breakerKeys = []string{"window", "window_size", "window_duration", "minimum_calls", "failure_rate", "slow_call_rate",
		"slow_call_duration", "half_open_calls", "open_pause", "max_open_pause", "placement"}
	retryBreakerKeys = []string{"placement", "window", "window_duration", "failure_rate"}
)

// timeWindow reads window_duration as a number of buckets and their width:
// buckets of one second (Resilience4j's; bucket 0, the default) when the
// duration is a whole number of seconds, else of one millisecond.
func (r *reader) timeWindow(bt *table) (n int, bucket time.Duration, ok bool) {
	d, good := bt.duration("window_duration", false, time.Millisecond)
	if !good {
		return 0, 0, false
	}
	w := topology.SettingBreakerWindowSize.Range()
	if d%time.Second == 0 && float64(d/time.Second) <= w.Hi {
		return int(d / time.Second), 0, true
	}
	if d%time.Millisecond != 0 || float64(d/time.Millisecond) > w.Hi {
		r.errorf(bt.key("window_duration"), "a window that is not a whole number of seconds is kept in 1 ms buckets: it must be a whole number of milliseconds, at most %v ms, got %v", w.Hi, d)
		return 0, 0, false
	}
	return int(d / time.Millisecond), time.Millisecond, true
}

// guardRetryBreaker reads a [breaker] table with placement "retries_only":
// jirfag's retry circuit breaker (breaker.RetryGate), which has a time
// window and a failure rate and none of the Resilience4j breaker's states.
func (r *reader) guardRetryBreaker(bt *table, g *topology.CallGuards, good bool) bool {
	c := breaker.DefaultRetryGateConfig()
	if w, wok := bt.oneOf("window", []string{"count", "time"}); wok && w == 0 {
		r.errorf(bt.key("window"), "placement \"retries_only\" keeps a time window (window = \"time\")")
		good = false
	} else if !wok && bt.has("window") {
		good = false
	}
	if bt.has("window_duration") {
		if n, b, wok := r.timeWindow(bt); wok {
			if b == 0 {
				b = time.Second
			}
			c.Window, c.Bucket = time.Duration(n)*b, b
		} else {
			good = false
		}
	}
	rangedNum(bt, "failure_rate", topology.SettingBreakerFailureRate.Range(), &c.FailureRateThreshold, &good)
	bt.done(retryBreakerKeys...)
	g.RetryBreaker = &c
	return r.validated(bt, c.Validate(), good)
}

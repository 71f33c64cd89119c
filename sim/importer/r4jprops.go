package importer

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// r4jKeys maps each section's properties to ressim keys: "breaker.x" a
// key of the call's breaker table, and so on. The kind of value: "int",
// "num", "dur" (a Spring duration) or "" (handled in property).
var r4jKeys = map[string]map[string][2]string{
	"circuitbreaker": {
		"slidingWindowSize":                     {"breaker.window_size", "int"},
		"minimumNumberOfCalls":                  {"breaker.minimum_calls", "int"},
		"failureRateThreshold":                  {"breaker.failure_rate", "num"},
		"slowCallRateThreshold":                 {"breaker.slow_call_rate", "num"},
		"slowCallDurationThreshold":             {"breaker.slow_call_duration", "dur"},
		"permittedNumberOfCallsInHalfOpenState": {"breaker.half_open_calls", "int"},
		"waitDurationInOpenState":               {"breaker.open_pause", "dur"},
		"slidingWindowType":                     {"breaker.window", ""},
	},
	"retry": {
		"maxAttempts":  {"retry.attempts", "int"},
		"waitDuration": {"retry.base", "dur"},
	},
	"bulkhead": {
		"maxConcurrentCalls": {"bulkhead.max_concurrent", "int"},
		"maxWaitDuration":    {"bulkhead.max_wait", "dur"},
	},
	"thread-pool-bulkhead": {
		"maxThreadPoolSize": {"bulkhead.max_threads", "int"},
		"queueCapacity":     {"bulkhead.queue", "int"},
	},
	"timelimiter": {
		"timeoutDuration": {"timeout", "dur"},
	},
}

// r4jRetryBackoff are the retry properties that choose the backoff.
var r4jRetryBackoff = map[string]bool{"enableExponentialBackoff": true, "exponentialBackoffMultiplier": true,
	"exponentialMaxWaitDuration": true, "enableRandomizedWait": true, "randomizedWaitFactor": true}

// property maps one resolved property of an instance.
func (g *r4jReader) property(kind, k string, p resolved, c *callOut, all map[string]resolved) {
	if kind == "thread-pool-bulkhead" {
		c.set("bulkhead.kind", `"pool"`, p.from)
	}
	if kind == "retry" && r4jRetryBackoff[k] {
		g.backoff(k, p, c, all)
		return
	}
	if kind == "circuitbreaker" && r4jBreakerBackoffProps[k] {
		g.r4jBreakerBackoff(k, p, c)
		return
	}
	m, ok := r4jKeys[kind][k]
	if !ok {
		g.warn(p.from, "not modelled: %s", r4jWhy(k))
		return
	}
	v := p.value.Value
	var out string
	var err error
	switch m[1] {
	case "int":
		_, err = strconv.Atoi(v)
		out = v
	case "num":
		_, err = strconv.ParseFloat(v, 64)
		out = v
	case "dur":
		out, err = quoteDur(p.value)
	default: // slidingWindowType
		out, err = map[string]string{"COUNT_BASED": `"count"`, "TIME_BASED": `"time"`}[v], nil
		if out == "" {
			err = fmt.Errorf("want COUNT_BASED or TIME_BASED")
		}
	}
	if err != nil {
		g.fail(p.from, "value %q: %v", v, err)
		return
	}
	c.set(m[0], out, p.from)
	if kind == "retry" && k == "waitDuration" && all["enableExponentialBackoff"].value == nil && all["enableRandomizedWait"].value == nil {
		c.set("retry.backoff", `"constant"`, p.from)
	}
}

// backoff maps the exponential and randomized retry properties.
// resilience4j's exponential wait is waitDuration * multiplier^(n-1),
// capped at exponentialMaxWaitDuration; ressim's "exponential" doubles,
// so a multiplier other than 2 is a warning. Randomized wait draws from
// [d(1-f), d(1+f)]; ressim's closest is full jitter ([0, d)), also a
// warning.
func (g *r4jReader) backoff(k string, p resolved, c *callOut, all map[string]resolved) {
	v := p.value.Value
	switch k {
	case "enableExponentialBackoff", "enableRandomizedWait":
		if v != "true" {
			return
		}
		random := all["enableRandomizedWait"].value != nil && all["enableRandomizedWait"].value.Value == "true"
		if random {
			c.set("retry.backoff", `"full_jitter"`, p.from)
			if k == "enableRandomizedWait" {
				g.warn(p.from, "approximate: resilience4j's randomized wait is uniform in [d(1-f), d(1+f)]; imported as full jitter, uniform in [0, d)")
			}
		} else {
			c.set("retry.backoff", `"exponential"`, p.from)
		}
	case "exponentialBackoffMultiplier":
		if f, err := strconv.ParseFloat(v, 64); err != nil || f <= 1 {
			g.fail(p.from, "value %q: want a number > 1", v)
		} else if f != 2 {
			g.warn(p.from, "multiplier %v imported as 2: ressim's backoffs double", f)
		}
	case "exponentialMaxWaitDuration":
		if out, err := quoteDur(p.value); err != nil {
			g.fail(p.from, "value %q: %v", v, err)
		} else {
			c.set("retry.cap", out, p.from)
		}
	case "randomizedWaitFactor":
		g.warn(p.from, "not modelled: the factor of a randomized wait (imported as full jitter)")
	}
}

// r4jWhy says why a known resilience4j property is not modelled.
func r4jWhy(k string) string {
	switch {
	case strings.HasSuffix(k, "Exceptions") || strings.HasSuffix(k, "Predicate"):
		return "ressim's outcomes are error, timeout and rejected, not exception classes"
	case k == "registerHealthIndicator" || k == "eventConsumerBufferSize" || k == "writableStackTraceEnabled":
		return "observability only"
	case k == "automaticTransitionFromOpenToHalfOpenEnabled":
		return "ressim's breaker moves to half-open on the next call after the pause"
	case k == "coreThreadPoolSize" || k == "keepAliveDuration":
		return "ressim's pool bulkhead has a fixed size (maxThreadPoolSize)"
	case k == "cancelRunningFuture":
		return "a timed-out attempt is always abandoned in ressim"
	}
	return "no counterpart in ressim"
}

// springDuration parses a Spring Boot duration: a bare number of
// milliseconds, a number with a unit (ns, us, ms, s, m, h, d), or ISO-8601
// (PT1.5S).
func springDuration(v string) (time.Duration, error) {
	s := strings.TrimSpace(v)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && n >= 0 && n <= int64(100*24*time.Hour/time.Millisecond) {
		return time.Duration(n) * time.Millisecond, nil
	}
	if strings.HasPrefix(strings.ToUpper(s), "PT") {
		s = strings.ToLower(s[2:])
	}
	if strings.HasSuffix(s, "d") {
		n, err := strconv.Atoi(strings.TrimSuffix(s, "d"))
		if err != nil || n < 0 || n > 100 {
			return 0, fmt.Errorf("want a Spring duration such as 500ms, 5s or PT5S")
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 || d > 100*24*time.Hour {
		return 0, fmt.Errorf("want a Spring duration such as 500ms, 5s or PT5S")
	}
	return d, nil
}

package importer

import (
	"strconv"
	"strings"
)

// r4jDefault is one resilience4j default the import writes when an
// instance leaves the property out, so that the model runs resilience4j's
// configuration and not ressim's defaults (which differ: a breaker's
// minimum calls, half-open calls and open pause).
type r4jDefault struct {
	prop, key, value string
}

// r4jDefaults are, per section, resilience4j's documented defaults
// (resilience4j 2.x: CircuitBreakerConfig, RetryConfig, BulkheadConfig,
// TimeLimiterConfig, each class's DEFAULT_* constants; the Spring Boot
// properties of the same names), in ressim's keys. The thread-pool
// bulkhead's defaults depend on the machine's processors and are not
// written.
var r4jDefaults = map[string][]r4jDefault{
	"circuitbreaker": {
		{"slidingWindowType", "breaker.window", `"count"`},
		{"slidingWindowSize", "breaker.window_size", "100"},
		{"minimumNumberOfCalls", "breaker.minimum_calls", "100"},
		{"failureRateThreshold", "breaker.failure_rate", "50"},
		{"slowCallRateThreshold", "breaker.slow_call_rate", "100"},
		{"slowCallDurationThreshold", "breaker.slow_call_duration", `"1m0s"`},
		{"permittedNumberOfCallsInHalfOpenState", "breaker.half_open_calls", "10"},
		{"waitDurationInOpenState", "breaker.open_pause", `"1m0s"`},
	},
	"retry": {
		{"maxAttempts", "retry.attempts", "3"},
		{"waitDuration", "retry.base", `"500ms"`},
		{"waitDuration", "retry.backoff", `"constant"`},
	},
	"bulkhead": {
		{"maxConcurrentCalls", "bulkhead.max_concurrent", "25"},
	},
	"timelimiter": {
		{"timeoutDuration", "timeout", `"1s"`},
	},
}

// r4jFillDefaults writes the section's defaults an instance left out,
// each citing the instance and "(default)", and the breaker's open pause
// as resilience4j runs it: constant unless enableExponentialBackoff,
// where ressim's pause would double up to 300 s.
func (g *r4jReader) r4jFillDefaults(kind string, c *callOut, from src, props map[string]resolved) {
	for _, d := range r4jDefaults[kind] {
		if props[d.prop].value == nil && !hasKey(c, d.key, g.file) {
			c.set(d.key, d.value, src{from.file, from.line, from.col, from.key + "." + d.prop + "(default)"})
		}
	}
	if kind != "circuitbreaker" {
		return
	}
	if p := props["enableExponentialBackoff"]; p.value != nil && p.value.Value == "true" {
		return // the pause doubles, up to exponentialMaxWaitDurationInOpenState (property)
	}
	for _, st := range c.settings {
		if st.key == "breaker.open_pause" {
			c.set("breaker.max_open_pause", st.value, src{st.from.file, st.from.line, st.from.col, st.from.key + "(constant)"})
		}
	}
}

// r4jBreakerBackoff maps a breaker's exponential open-state properties:
// exponentialMaxWaitDurationInOpenState caps the grown pause; ressim's
// pause doubles, so a multiplier other than 2 is a warning.
func (g *r4jReader) r4jBreakerBackoff(k string, p resolved, c *callOut) {
	switch k {
	case "enableExponentialBackoff":
		if p.value.Value != "true" && p.value.Value != "false" {
			g.fail(p.from, "value %q: want true or false", p.value.Value)
		}
	case "exponentialBackoffMultiplier":
		if f, err := strconv.ParseFloat(p.value.Value, 64); err != nil || f <= 1 {
			g.fail(p.from, "value %q: want a number > 1", p.value.Value)
		} else if f != 2 {
			g.warn(p.from, "multiplier %v imported as 2: ressim's open pause doubles", f)
		}
	case "exponentialMaxWaitDurationInOpenState":
		if out, err := quoteDur(p.value); err != nil {
			g.fail(p.from, "value %q: %v", p.value.Value, err)
		} else {
			c.set("breaker.max_open_pause", out, p.from)
		}
	}
}

// r4jBreakerBackoffProps are the breaker properties r4jBreakerBackoff maps.
var r4jBreakerBackoffProps = map[string]bool{"enableExponentialBackoff": true, "exponentialBackoffMultiplier": true,
	"exponentialMaxWaitDurationInOpenState": true}

// The Spring Boot aspects' default orders (resilience4j-spring-boot2/3:
// RetryConfigurationProperties and CircuitBreakerConfigurationProperties,
// Ordered.LOWEST_PRECEDENCE - 4 and - 3): the lower runs outside, so
// Retry(CircuitBreaker(call)) and the breaker records every attempt.
const (
	r4jRetryOrder   = 1<<31 - 1 - 4
	r4jBreakerOrder = 1<<31 - 1 - 3
)

// r4jPlacement sets breaker.placement on every call with both a breaker
// and a retry, from the aspect orders (retryAspectOrder,
// circuitBreakerAspectOrder, read in the collect pass): inside_retry
// when the retry's order is lower, as by default.
func (sk *skeleton) r4jPlacement() {
	retry, breaker := r4jRetryOrder, r4jBreakerOrder
	if o, ok := sk.r4jOrders["retryAspectOrder"]; ok {
		retry = o.order
	}
	if o, ok := sk.r4jOrders["circuitBreakerAspectOrder"]; ok {
		breaker = o.order
	}
	place := `"inside_retry"`
	if breaker < retry {
		place = `"outside_retry"`
	}
	for i := range sk.calls {
		c := &sk.calls[i]
		var b, r bool
		for _, st := range c.settings {
			b = b || strings.HasPrefix(st.key, "breaker.")
			r = r || strings.HasPrefix(st.key, "retry.")
		}
		if b && r {
			from := c.from
			from.key += "(aspect_order)"
			c.set("breaker.placement", place, from)
		}
	}
}

// r4jOrder is an aspect order property and where it is set.
type r4jOrder struct {
	order int
	from  src
}

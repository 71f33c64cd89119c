package breaker

import (
	"errors"
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

// WindowType selects how the sliding window is measured, like Resilience4j's
// slidingWindowType.
type WindowType uint8

const (
	// CountBased: the window holds the last SlidingWindowSize calls.
	CountBased WindowType = iota
	// TimeBased: the window holds the calls of the last SlidingWindowSize
	// buckets of Config.Bucket (one second by default).
	TimeBased
)

// String returns "count_based" or "time_based".
func (w WindowType) String() string {
	switch w {
	case CountBased:
		return "count_based"
	case TimeBased:
		return "time_based"
	}
	return "unknown"
}

// BucketWidth is the default width of one bucket of a TimeBased window: one
// second, as in Resilience4j.
const BucketWidth = time.Second

// Config holds a breaker's parameters. Field names follow Resilience4j's
// CircuitBreakerConfig; DefaultConfig gives the numbers of «Устойчивость:
// circuit breaker, retry, bulkhead, backpressure, деградация», section 4.
type Config struct {
	// SlidingWindowType is CountBased (default) or TimeBased.
	SlidingWindowType WindowType
	// SlidingWindowSize is the window length: a number of calls for a
	// CountBased window, a number of seconds for a TimeBased one.
	// Default 100. Must be >= 1.
	SlidingWindowSize int
	// Bucket is the width of one bucket of a TimeBased window, so that the
	// window spans SlidingWindowSize*Bucket. Zero means BucketWidth (one
	// second, Resilience4j's only width); a sub-second Bucket gives
	// sub-second windows (200 one-millisecond buckets for a 200 ms window).
	// Must be >= 0; ignored by a CountBased window.
	Bucket time.Duration
	// MinimumNumberOfCalls is the number of calls the window must hold
	// before any rate is evaluated. Default 20. Must be >= 1. For a
	// CountBased window the effective minimum is capped at
	// SlidingWindowSize.
	MinimumNumberOfCalls int
	// FailureRateThreshold is the failure rate, in percent, at or above
	// which the breaker opens. Default 50. Must be in (0, 100].
	FailureRateThreshold float64
	// SlowCallRateThreshold is the slow-call rate, in percent, at or above
	// which the breaker opens. Default 100 (Resilience4j's default; the
	// resilience article, section 4, gives none). Must be in (0, 100].
	SlowCallRateThreshold float64
	// SlowCallDurationThreshold is the latency above which a successful
	// call counts as slow. Default 60 s (Resilience4j's). Must be > 0.
	SlowCallDurationThreshold time.Duration
	// PermittedNumberOfCallsInHalfOpenState is the number of probes
	// admitted in half-open. Default 3. Must be >= 1.
	PermittedNumberOfCallsInHalfOpenState int
	// WaitDurationInOpenState is the open pause after the first trip; it
	// doubles on every consecutive trip. Default 15 s. Must be > 0.
	WaitDurationInOpenState time.Duration
	// MaxWaitDurationInOpenState caps the grown open pause. Default 300 s.
	// Must be >= WaitDurationInOpenState; set it equal for a constant
	// pause.
	MaxWaitDurationInOpenState time.Duration
	// IsFailure classifies a non-local outcome as a failure. Nil means
	// policies.Outcome.IsFailure (Error, Timeout, Rejected). Local refusals
	// are ignored before IsFailure is consulted.
	IsFailure func(policies.Outcome) bool
}

// DefaultConfig returns the resilience article's breaker (section 4): the
// last 100 calls, at least 20 before deciding, open at 50 % failures, 3
// half-open probes, a 15 s pause doubling up to 300 s; slow calls as in Resilience4j (a
// success slower than 60 s is slow, open at 100 % slow calls).
func DefaultConfig() Config {
	return Config{
		SlidingWindowType:                     CountBased,
		SlidingWindowSize:                     100,
		MinimumNumberOfCalls:                  20,
		FailureRateThreshold:                  50,
		SlowCallRateThreshold:                 100,
		SlowCallDurationThreshold:             60 * time.Second,
		PermittedNumberOfCallsInHalfOpenState: 3,
		WaitDurationInOpenState:               15 * time.Second,
		MaxWaitDurationInOpenState:            300 * time.Second,
	}
}

// maxWindowSize bounds SlidingWindowSize so that a typo cannot allocate
// gigabytes: 1<<20 calls or seconds.
const maxWindowSize = 1 << 20

// ErrInvalidConfig is wrapped by every error New returns for a bad Config.
var ErrInvalidConfig = errors.New("breaker: invalid config")

// Validate reports the first invalid field of c, wrapping ErrInvalidConfig.
func (c Config) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrInvalidConfig}, args...)...)
	}
	switch {
	case c.SlidingWindowType != CountBased && c.SlidingWindowType != TimeBased:
		return bad("SlidingWindowType %d unknown", c.SlidingWindowType)
	case c.SlidingWindowSize < 1 || c.SlidingWindowSize > maxWindowSize:
		return bad("SlidingWindowSize %d not in [1, %d]", c.SlidingWindowSize, maxWindowSize)
	case c.Bucket < 0:
		return bad("Bucket %v < 0", c.Bucket)
	case c.MinimumNumberOfCalls < 1:
		return bad("MinimumNumberOfCalls %d < 1", c.MinimumNumberOfCalls)
	case !(c.FailureRateThreshold > 0 && c.FailureRateThreshold <= 100):
		return bad("FailureRateThreshold %v not in (0, 100]", c.FailureRateThreshold)
	case !(c.SlowCallRateThreshold > 0 && c.SlowCallRateThreshold <= 100):
		return bad("SlowCallRateThreshold %v not in (0, 100]", c.SlowCallRateThreshold)
	case c.SlowCallDurationThreshold <= 0:
		return bad("SlowCallDurationThreshold %v <= 0", c.SlowCallDurationThreshold)
	case c.PermittedNumberOfCallsInHalfOpenState < 1:
		return bad("PermittedNumberOfCallsInHalfOpenState %d < 1", c.PermittedNumberOfCallsInHalfOpenState)
	case c.WaitDurationInOpenState <= 0:
		return bad("WaitDurationInOpenState %v <= 0", c.WaitDurationInOpenState)
	case c.MaxWaitDurationInOpenState < c.WaitDurationInOpenState:
		return bad("MaxWaitDurationInOpenState %v < WaitDurationInOpenState %v",
			c.MaxWaitDurationInOpenState, c.WaitDurationInOpenState)
	}
	return nil
}

// bucket returns the width of one time bucket: Bucket, or BucketWidth when
// it is zero.
func (c Config) bucket() time.Duration {
	if c.Bucket > 0 {
		return c.Bucket
	}
	return BucketWidth
}

// openPause returns the open pause after the n-th consecutive trip (n >= 1):
// min(WaitDurationInOpenState * 2^(n-1), MaxWaitDurationInOpenState),
// without overflow.
func (c Config) openPause(n int) time.Duration {
	d := c.WaitDurationInOpenState
	for i := 1; i < n && d < c.MaxWaitDurationInOpenState; i++ {
		d *= 2
	}
	return min(d, c.MaxWaitDurationInOpenState)
}

package retry

import (
	"errors"
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

// Defaults, from «Устойчивость: circuit breaker, retry, bulkhead,
// backpressure, деградация» ("Resilience: circuit breaker, retry, bulkhead,
// backpressure, degradation"), section 3.2 (3 attempts, base 50 ms, cap 2 s,
// full jitter), and Marc Brooker's "Exponential Backoff and Jitter" (AWS
// Architecture Blog, 2015).
const (
	// DefaultMaxAttempts is the default number of attempts in total, the
	// first one included: 3, that is at most 2 retries.
	DefaultMaxAttempts = 3
	// DefaultBase is the default base delay, 50 ms.
	DefaultBase = 50 * time.Millisecond
	// DefaultCap is the default ceiling on one delay, 2 s.
	DefaultCap = 2 * time.Second

	// MaxMaxAttempts is the largest MaxAttempts New accepts.
	MaxMaxAttempts = 100
	// MaxCap is the largest Cap (and Base) New accepts, 24 h. It keeps every
	// delay exactly representable as a float64 number of nanoseconds.
	MaxCap = 24 * time.Hour
)

// ErrInvalidConfig is wrapped by every error New returns.
var ErrInvalidConfig = errors.New("retry: invalid config")

// Config configures a Policy. Start from DefaultConfig; the zero Config is
// not valid.
type Config struct {
	// MaxAttempts is the number of attempts in total, the first included.
	// 1 disables retries. Default 3; range [1, MaxMaxAttempts].
	MaxAttempts int

	// RetryOn is the set of retryable outcomes. Default DefaultRetryOn
	// (Error, Timeout, Rejected). It must not be empty and may contain only
	// Error, Timeout, Rejected and BulkheadFull: Success, CircuitOpen,
	// DeadlineExceeded and Cancelled are never retried.
	RetryOn OutcomeSet

	// Idempotent says whether the operation may safely run twice (a GET, or
	// a POST with an idempotency key). A non-idempotent operation is never
	// retried. Default true in DefaultConfig; set it false for operations
	// such as POST /payments without an idempotency key.
	Idempotent bool

	// Backoff selects the delay formula. Default BackoffFullJitter.
	Backoff Backoff

	// Base is the base delay ("base" in Brooker's formulas). Default 50 ms;
	// must be > 0 unless Backoff is BackoffNone, and <= Cap.
	Base time.Duration

	// Cap is the ceiling on any one delay ("cap" in Brooker's formulas).
	// Default 2 s; range [Base, MaxCap]. Ignored by BackoffNone and
	// BackoffConstant, which never exceed Base.
	Cap time.Duration

	// AttemptTimeout is the timeout of one attempt, used to refuse a retry
	// that cannot finish before the request's deadline and by WorstCase.
	// 0 means the attempt gets whatever the deadline leaves. Default 0;
	// must be >= 0.
	AttemptTimeout time.Duration
}

// DefaultConfig returns the defaults: 3 attempts, retry on Error, Timeout and
// Rejected, idempotent, full jitter with base 50 ms and cap 2 s, no
// per-attempt timeout.
func DefaultConfig() Config {
	return Config{
		MaxAttempts: DefaultMaxAttempts,
		RetryOn:     DefaultRetryOn,
		Idempotent:  true,
		Backoff:     BackoffFullJitter,
		Base:        DefaultBase,
		Cap:         DefaultCap,
	}
}

// Validate reports the first problem with c, wrapped around
// ErrInvalidConfig, or nil.
func (c Config) Validate() error {
	switch {
	case c.MaxAttempts < 1 || c.MaxAttempts > MaxMaxAttempts:
		return fmt.Errorf("%w: MaxAttempts %d not in [1, %d]", ErrInvalidConfig, c.MaxAttempts, MaxMaxAttempts)
	case c.RetryOn == 0:
		return fmt.Errorf("%w: RetryOn is empty (use MaxAttempts 1 to disable retries)", ErrInvalidConfig)
	case c.Backoff >= numBackoffs:
		return fmt.Errorf("%w: unknown Backoff %v", ErrInvalidConfig, c.Backoff)
	case c.Base < 0 || c.Cap < 0 || c.AttemptTimeout < 0:
		return fmt.Errorf("%w: negative duration (Base %v, Cap %v, AttemptTimeout %v)", ErrInvalidConfig, c.Base, c.Cap, c.AttemptTimeout)
	case c.Cap > MaxCap:
		return fmt.Errorf("%w: Cap %v above %v", ErrInvalidConfig, c.Cap, MaxCap)
	case c.Backoff != BackoffNone && c.Base == 0:
		return fmt.Errorf("%w: Base must be > 0 for backoff %v", ErrInvalidConfig, c.Backoff)
	case c.Base > c.Cap:
		return fmt.Errorf("%w: Base %v above Cap %v", ErrInvalidConfig, c.Base, c.Cap)
	}
	allowed := NewOutcomeSet(policies.Error, policies.Timeout, policies.Rejected, policies.BulkheadFull)
	if bad := c.RetryOn &^ allowed; bad != 0 {
		for o := policies.Outcome(0); o < 16; o++ {
			if bad.Has(o) {
				return fmt.Errorf("%w: outcome %v can never be retried", ErrInvalidConfig, o)
			}
		}
	}
	return nil
}

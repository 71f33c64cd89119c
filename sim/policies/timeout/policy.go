package timeout

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// Forever is the largest time.Duration, the worst case of a call with no
// timeout.
const Forever = time.Duration(math.MaxInt64)

// DefaultAttempt is the default per-attempt timeout, 1 s (the gateway of
// «Устойчивость: circuit breaker, retry, bulkhead, backpressure,
// деградация», section 2, rule 2). It is a placeholder: size the real value from the
// dependency's p99.9 with Sizing.Recommend.
const DefaultAttempt = time.Second

// ErrInvalidConfig is wrapped by every configuration error in this package.
var ErrInvalidConfig = errors.New("timeout: invalid config")

// Config configures a per-attempt timeout Policy.
type Config struct {
	// Attempt is the timeout of one attempt of the call. Default 1 s; must be
	// > 0: there is no "no timeout".
	Attempt time.Duration
}

// DefaultConfig returns Attempt 1 s.
func DefaultConfig() Config { return Config{Attempt: DefaultAttempt} }

// Validate reports a problem with c, wrapped around ErrInvalidConfig, or nil.
func (c Config) Validate() error {
	if c.Attempt <= 0 {
		return fmt.Errorf("%w: Attempt %v must be > 0 (a call without a timeout is a resource leak)", ErrInvalidConfig, c.Attempt)
	}
	return nil
}

// Policy is a per-attempt timeout. It is an immutable value, safe for
// concurrent use.
type Policy struct {
	attempt time.Duration
}

// New validates cfg and returns a Policy.
func New(cfg Config) (Policy, error) {
	if err := cfg.Validate(); err != nil {
		return Policy{}, fmt.Errorf("timeout.New: %w", err)
	}
	return Policy{attempt: cfg.Attempt}, nil
}

// Attempt returns the configured per-attempt timeout.
func (p Policy) Attempt() time.Duration { return p.attempt }

// Effective returns the timeout of an attempt that starts at instant start
// under the request's deadline instant (0 = none): min(Attempt, deadline -
// start), or 0 if the deadline is at or before start (do not send the
// attempt; report policies.DeadlineExceeded).
func (p Policy) Effective(start, deadline time.Duration) time.Duration {
	if deadline == 0 {
		return p.attempt
	}
	if deadline <= start {
		return 0
	}
	// deadline > start: deadline-start is positive unless it overflows,
	// and then, as a uint64, above any attempt timeout, so the unsigned
	// minimum is the attempt's: 3 instructions fewer per attempt than a
	// test of start for the overflow (4 M in the retry storm).
	return time.Duration(min(uint64(deadline-start), uint64(p.attempt)))
}

// ExpiresAt returns the instant at which an attempt that starts at start
// times out: start + Effective(start, deadline), saturating at Forever.
func (p Policy) ExpiresAt(start, deadline time.Duration) time.Duration {
	e := p.Effective(start, deadline)
	if start > 0 && e > Forever-start {
		return Forever
	}
	return start + e
}

// Expired reports whether an attempt that started at start has timed out at
// instant now: now >= ExpiresAt(start, deadline).
func (p Policy) Expired(start, now, deadline time.Duration) bool {
	return now >= p.ExpiresAt(start, deadline)
}

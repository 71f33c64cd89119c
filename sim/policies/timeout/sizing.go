package timeout

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// Defaults for Sizing. They are ressim's choices: «Устойчивость: circuit
// breaker, retry, bulkhead, backpressure, деградация», section 2, gives the
// rule (p99.9 plus a margin, no more than the user will wait) but no numbers.
const (
	// DefaultHeadroom is the default margin above p99.9, as a fraction of
	// it: 0.5, so the recommended timeout is 1.5 x p99.9.
	DefaultHeadroom = 0.5
	// DefaultMaxFactor is the default ratio of timeout to p99.9 above which
	// Assess calls a timeout too long: 3.
	DefaultMaxFactor = 3.0
)

// ErrTooSlow is returned by Sizing.Recommend when the dependency's p99.9
// already exceeds the user's patience: no timeout can be both long enough
// for healthy calls and short enough for the user.
var ErrTooSlow = errors.New("timeout: dependency p99.9 exceeds the user's patience")

// Sizing derives a timeout from a dependency's latency. Start from
// DefaultSizing.
type Sizing struct {
	// Headroom is the margin added to p99.9, as a fraction of p99.9.
	// Default 0.5; range (0, 100].
	Headroom float64
	// MaxFactor is the timeout/p99.9 ratio above which a timeout only holds
	// dead slots longer. Default 3; range [1 + Headroom, 1e6], so that a
	// recommended timeout always passes Assess.
	MaxFactor float64
	// Patience is the longest the user is willing to wait for the call
	// (usually the request's deadline budget); 0 means no limit. Must be
	// >= 0.
	Patience time.Duration
}

// DefaultSizing returns Headroom 0.5, MaxFactor 3, no Patience limit.
func DefaultSizing() Sizing {
	return Sizing{Headroom: DefaultHeadroom, MaxFactor: DefaultMaxFactor}
}

// Validate reports the first problem with s, wrapped around
// ErrInvalidConfig, or nil.
func (s Sizing) Validate() error {
	switch {
	case !(s.Headroom > 0 && s.Headroom <= 100):
		return fmt.Errorf("%w: Headroom %v not in (0, 100]", ErrInvalidConfig, s.Headroom)
	case !(s.MaxFactor >= 1+s.Headroom && s.MaxFactor <= 1e6):
		return fmt.Errorf("%w: MaxFactor %v not in [1+Headroom, 1e6]", ErrInvalidConfig, s.MaxFactor)
	case s.Patience < 0:
		return fmt.Errorf("%w: negative Patience %v", ErrInvalidConfig, s.Patience)
	}
	return nil
}

// Recommend returns a per-attempt timeout for a dependency whose normal
// p99.9 latency is p999: min(Patience, p999 x (1 + Headroom)), rounded
// down to the nanosecond and saturating at Forever. If Patience is not above
// p999 it returns Patience and an error wrapping ErrTooSlow: make the call
// non-critical, or the dependency faster.
func (s Sizing) Recommend(p999 time.Duration) (time.Duration, error) {
	if err := s.Validate(); err != nil {
		return 0, fmt.Errorf("timeout.Recommend: %w", err)
	}
	if p999 <= 0 {
		return 0, fmt.Errorf("timeout.Recommend: p99.9 %v must be > 0", p999)
	}
	t := mulSat(p999, 1+s.Headroom)
	if s.Patience > 0 {
		if s.Patience <= p999 {
			return s.Patience, fmt.Errorf("timeout.Recommend: p99.9 %v, patience %v: %w", p999, s.Patience, ErrTooSlow)
		}
		t = min(t, s.Patience)
	}
	return t, nil
}

// Assess returns nil if timeout suits a dependency with p99.9 latency
// p999, and otherwise an error saying why: a timeout at or below p99.9
// cuts off more than 0.1 % of healthy calls; one above MaxFactor x p99.9
// only holds dead slots longer when the dependency fails; one above
// Patience outlasts the user.
func (s Sizing) Assess(timeout, p999 time.Duration) error {
	if err := s.Validate(); err != nil {
		return fmt.Errorf("timeout.Assess: %w", err)
	}
	switch {
	case timeout <= 0:
		return fmt.Errorf("timeout.Assess: no timeout: a call without a timeout is a resource leak")
	case p999 <= 0:
		return fmt.Errorf("timeout.Assess: p99.9 %v must be > 0", p999)
	case timeout <= p999:
		return fmt.Errorf("timeout.Assess: timeout %v not above p99.9 %v: healthy calls time out", timeout, p999)
	case timeout > mulSat(p999, s.MaxFactor):
		return fmt.Errorf("timeout.Assess: timeout %v is %.1f x p99.9 %v (max %v x): a failing dependency holds every slot that long",
			timeout, float64(timeout)/float64(p999), p999, s.MaxFactor)
	case s.Patience > 0 && timeout > s.Patience:
		return fmt.Errorf("timeout.Assess: timeout %v exceeds the user's patience %v", timeout, s.Patience)
	}
	return nil
}

// DeadSlots returns, by Little's law, how many caller slots (workers,
// connections) are held at any moment when calls arrive at rate per second
// and each waits hold before failing: rate x hold. With a dead dependency,
// hold is the timeout: 1000 req/s x 10 s = 10 000 slots, against 1000 x
// 0.02 s = 20 in normal operation.
func DeadSlots(rate float64, hold time.Duration) float64 {
	return rate * hold.Seconds()
}

// mulSat returns d*f rounded down, saturating at Forever.
func mulSat(d time.Duration, f float64) time.Duration {
	x := math.Floor(float64(d) * f)
	if x >= float64(Forever) {
		return Forever
	}
	return time.Duration(x)
}

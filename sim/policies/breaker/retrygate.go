package breaker

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

// RetryGateConfig configures a RetryGate. DefaultRetryGateConfig gives the
// numbers of jirfag's "retry-cb-10%" strategy.
type RetryGateConfig struct {
	// Window is the length of the sliding time window of attempt outcomes.
	// Default 200 ms. Must be > 0 and a multiple of Bucket.
	Window time.Duration
	// Bucket is the width of the window's buckets: the window forgets an
	// outcome between Window-Bucket and Window after it. Default 1 ms.
	// Must be > 0, with Window/Bucket at most 1<<20.
	Bucket time.Duration
	// FailureRateThreshold is the failure rate of the window, in percent,
	// at or above which retries are refused. Default 10. Must be in
	// (0, 100].
	FailureRateThreshold float64
	// IsFailure classifies a non-local outcome as a failure. Nil means
	// policies.Outcome.IsFailure (Error, Timeout, Rejected).
	IsFailure func(policies.Outcome) bool
}

// DefaultRetryGateConfig returns jirfag's retry circuit breaker: retries
// refused while 10 % or more of the attempts of the last 200 ms failed.
func DefaultRetryGateConfig() RetryGateConfig {
	return RetryGateConfig{Window: 200 * time.Millisecond, Bucket: time.Millisecond, FailureRateThreshold: 10}
}

// Validate reports the first invalid field of c, wrapping ErrInvalidConfig.
func (c RetryGateConfig) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrInvalidConfig}, args...)...)
	}
	switch {
	case c.Bucket <= 0:
		return bad("retry gate Bucket %v <= 0", c.Bucket)
	case c.Window <= 0 || c.Window%c.Bucket != 0:
		return bad("retry gate Window %v not a positive multiple of Bucket %v", c.Window, c.Bucket)
	case c.Window/c.Bucket > maxWindowSize:
		return bad("retry gate Window %v holds more than %d buckets of %v", c.Window, maxWindowSize, c.Bucket)
	case !(c.FailureRateThreshold > 0 && c.FailureRateThreshold <= 100):
		return bad("retry gate FailureRateThreshold %v not in (0, 100]", c.FailureRateThreshold)
	}
	return nil
}

// RetryGate is a retry circuit breaker: it never refuses a first attempt,
// and refuses retries while the failure rate of the attempts of a sliding
// time window is at or above a threshold, or while the window is empty. It
// has no states, no minimum number of calls and no half-open probes: the
// rule is evaluated afresh at every retry. Create it with NewRetryGate. It
// is not safe for concurrent use; instants passed to it must not decrease
// (an earlier one is treated as the latest seen).
type RetryGate struct {
	cfg       RetryGateConfig
	isFailure func(policies.Outcome) bool
	last      time.Duration
	w         timeWindow
}

// NewRetryGate returns a gate with an empty window, or an error wrapping
// ErrInvalidConfig.
func NewRetryGate(cfg RetryGateConfig) (*RetryGate, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("breaker.NewRetryGate: %w", err)
	}
	g := &RetryGate{cfg: cfg, isFailure: cfg.IsFailure}
	if g.isFailure == nil {
		g.isFailure = policies.Outcome.IsFailure
	}
	g.w.buckets = make([]bucket, cfg.Window/cfg.Bucket)
	g.w.width = cfg.Bucket
	return g, nil
}

// Config returns the gate's configuration.
func (g *RetryGate) Config() RetryGateConfig { return g.cfg }

func (g *RetryGate) clamp(now time.Duration) time.Duration {
	if g.w.started && now < g.last {
		return g.last
	}
	g.last = now
	return now
}

// Record adds the outcome of an attempt, first or retry, that ended at now.
// Local refusals (policies.Outcome.IsLocal) are ignored.
func (g *RetryGate) Record(now time.Duration, o policies.Outcome) {
	if o.IsLocal() {
		return
	}
	k := success
	if g.isFailure(o) {
		k = failure
	}
	g.w.add(g.clamp(now), k)
}

// AllowRetry reports whether a retry may be sent at now: the window holds
// at least one outcome and fewer than FailureRateThreshold percent of them
// failed.
func (g *RetryGate) AllowRetry(now time.Duration) bool {
	c := g.Counts(now)
	return c.Calls > 0 && float64(c.Failures)*100 < g.cfg.FailureRateThreshold*float64(c.Calls)
}

// Counts returns the window's counts at now, dropping expired buckets.
func (g *RetryGate) Counts(now time.Duration) Counts {
	if !g.w.started {
		return Counts{}
	}
	g.w.advance(g.clamp(now))
	return g.w.counts
}

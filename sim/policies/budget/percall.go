package budget

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

// Defaults of PerCall, from Marc Brooker's retry simulator
// (AdaptiveRetryFactory(0.1, 5) in retry_sim/retry_sim.py).
const (
	DefaultEarnPerCall     = 0.1
	DefaultPerCallCapacity = 5.0
)

// PerCallConfig configures a PerCall budget. Start from
// DefaultPerCallConfig.
type PerCallConfig struct {
	// EarnPerCall is the tokens each call earns when it starts
	// (bucket_fill_rate). Range 0 or [1e-6, MaxRatio].
	EarnPerCall float64
	// Capacity is the most tokens the bucket holds, and its initial level
	// (bucket_size). Range [1, MaxCapacity].
	Capacity float64
}

// DefaultPerCallConfig returns Brooker's setting: 0.1 per call, 5 tokens.
func DefaultPerCallConfig() PerCallConfig {
	return PerCallConfig{EarnPerCall: DefaultEarnPerCall, Capacity: DefaultPerCallCapacity}
}

// Validate reports the first problem with c, wrapped around
// ErrInvalidConfig, or nil.
func (c PerCallConfig) Validate() error {
	switch {
	case !(c.EarnPerCall == 0 || c.EarnPerCall >= 1e-6 && c.EarnPerCall <= MaxRatio):
		return fmt.Errorf("%w: EarnPerCall %v not 0 or in [1e-6, %v]", ErrInvalidConfig, c.EarnPerCall, MaxRatio)
	case !(c.Capacity >= 1 && c.Capacity <= MaxCapacity):
		return fmt.Errorf("%w: Capacity %v not in [1, %v]", ErrInvalidConfig, c.Capacity, MaxCapacity)
	}
	return nil
}

// PerCall is the "adaptive" retry token bucket of Marc Brooker's retry
// simulator (AdaptiveRetryStrategy in retry_sim/retry_strategy.py):
//
//   - the bucket starts full, at Capacity tokens;
//   - every call, when it starts, earns EarnPerCall tokens, up to
//     Capacity (start()), whatever its outcome will be;
//   - a retry is allowed while the bucket holds strictly more than one
//     token, and takes one (should_retry: bucket > 1.0). So the last token
//     never pays: a bucket of 5 pays for 4 retries;
//   - successes earn nothing.
//
// The tokens are kept in millionths, as Bucket's. It needs no clock; the
// instants are accepted for the Quota interface. It is not safe for
// concurrent use.
type PerCall struct {
	cfg      PerCallConfig
	earn     int64 // micro-tokens per call
	capacity int64
	tokens   int64
	stats    Stats
}

// NewPerCall validates cfg and returns a full bucket.
func NewPerCall(cfg PerCallConfig) (*PerCall, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("budget.NewPerCall: %w", err)
	}
	p := &PerCall{cfg: cfg, earn: micro(cfg.EarnPerCall), capacity: micro(cfg.Capacity)}
	p.tokens = p.capacity
	return p, nil
}

// Config returns the bucket's configuration.
func (p *PerCall) Config() PerCallConfig { return p.cfg }

// CallStarted earns EarnPerCall, up to Capacity.
func (p *PerCall) CallStarted(time.Duration) {
	p.tokens = min(p.tokens+p.earn, p.capacity)
}

// Withdraw allows a retry, and takes one token, while the bucket holds
// more than one; the outcome does not change the price.
func (p *PerCall) Withdraw(time.Duration, policies.Outcome) (bool, Receipt) {
	if p.tokens <= scale {
		p.stats.Denied++
		return false, NoReceipt
	}
	p.tokens -= scale
	p.stats.Allowed++
	return true, PaidToken
}

// Deposit counts a success; it earns nothing.
func (p *PerCall) Deposit(time.Duration, bool, Receipt) { p.stats.Successes++ }

// Tokens returns the tokens in the bucket, in [0, Capacity].
func (p *PerCall) Tokens() float64 { return float64(p.tokens) / scale }

// Stats returns the bucket's counters (FromReserve is always 0).
func (p *PerCall) Stats() Stats { return p.stats }

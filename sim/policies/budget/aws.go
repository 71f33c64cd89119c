package budget

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

// Defaults of the AWS SDK for Go v2's standard retry quota (package
// aws/retry, standard.go: DefaultRetryRateTokens, DefaultRetryCost,
// DefaultRetryTimeoutCost, DefaultNoRetryIncrement).
const (
	DefaultAWSCapacity    = 500
	DefaultAWSRetryCost   = 5
	DefaultAWSTimeoutCost = 10
	DefaultAWSRefund      = 1

	// MaxAWSCapacity bounds Capacity; MaxAWSCost bounds the costs and the
	// refund.
	MaxAWSCapacity = 1_000_000_000
	MaxAWSCost     = 1_000_000
)

// AWSConfig configures an AWS quota. Start from DefaultAWSConfig.
type AWSConfig struct {
	// Capacity is the most tokens the quota holds, and its initial level
	// (the SDK's RateLimiter, ratelimit.NewTokenRateLimit(500)). Range
	// [1, MaxAWSCapacity].
	Capacity int
	// RetryCost is what a retry costs (StandardOptions.RetryCost, 5).
	// Range [1, MaxAWSCost].
	RetryCost int
	// TimeoutCost is what a retry costs when the failed attempt timed out
	// (StandardOptions.RetryTimeoutCost, 10). Range [1, MaxAWSCost].
	TimeoutCost int
	// SuccessRefund is what every successful attempt puts back
	// (StandardOptions.NoRetryIncrement, 1). Range [0, MaxAWSCost].
	SuccessRefund int
}

// DefaultAWSConfig returns the SDK's defaults: 500, 5, 10, 1.
func DefaultAWSConfig() AWSConfig {
	return AWSConfig{Capacity: DefaultAWSCapacity, RetryCost: DefaultAWSRetryCost,
		TimeoutCost: DefaultAWSTimeoutCost, SuccessRefund: DefaultAWSRefund}
}

// Validate reports the first problem with c, wrapped around
// ErrInvalidConfig, or nil.
func (c AWSConfig) Validate() error {
	switch {
	case c.Capacity < 1 || c.Capacity > MaxAWSCapacity:
		return fmt.Errorf("%w: Capacity %d not in [1, %d]", ErrInvalidConfig, c.Capacity, MaxAWSCapacity)
	case c.RetryCost < 1 || c.RetryCost > MaxAWSCost:
		return fmt.Errorf("%w: RetryCost %d not in [1, %d]", ErrInvalidConfig, c.RetryCost, MaxAWSCost)
	case c.TimeoutCost < 1 || c.TimeoutCost > MaxAWSCost:
		return fmt.Errorf("%w: TimeoutCost %d not in [1, %d]", ErrInvalidConfig, c.TimeoutCost, MaxAWSCost)
	case c.SuccessRefund < 0 || c.SuccessRefund > MaxAWSCost:
		return fmt.Errorf("%w: SuccessRefund %d not in [0, %d]", ErrInvalidConfig, c.SuccessRefund, MaxAWSCost)
	}
	return nil
}

// AWSStats counts what an AWS quota has done since it was made.
type AWSStats struct {
	// Successes is the number of Deposit calls; Refunds the part of them
	// that refunded a retry's cost.
	Successes, Refunds uint64
	// Allowed and Denied count Withdraw's answers.
	Allowed, Denied uint64
}

// AWS is the AWS SDK for Go v2's standard retry quota (retry.Standard
// over ratelimit.TokenRateLimit), as its attempt middleware drives it:
//
//   - the quota starts full, at Capacity tokens;
//   - a retry takes RetryCost tokens, or TimeoutCost when the failed
//     attempt timed out (GetRetryToken), and is refused when fewer are
//     left (TokenBucket.Retrieve): the call then fails with the last
//     attempt's error;
//   - every successful attempt, first or retry, puts back SuccessRefund
//     (the attempt token of GetAttemptToken, released without an error);
//     a successful retry also puts back what it cost (its retry token's
//     release); a failed attempt puts back nothing. Refunds stop at
//     Capacity (TokenBucket.Refund).
//
// The quota is kept in whole tokens, as the SDK's uint. It needs no
// clock; the instants are accepted for the Quota interface. See the
// package documentation for the sources. It is not safe for concurrent
// use.
type AWS struct {
	cfg    AWSConfig
	tokens int64
	stats  AWSStats
}

// NewAWS validates cfg and returns a full quota.
func NewAWS(cfg AWSConfig) (*AWS, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("budget.NewAWS: %w", err)
	}
	return &AWS{cfg: cfg, tokens: int64(cfg.Capacity)}, nil
}

// Config returns the quota's configuration.
func (q *AWS) Config() AWSConfig { return q.cfg }

// CallStarted does nothing: the quota earns on successes.
func (q *AWS) CallStarted(time.Duration) {}

// Withdraw takes TimeoutCost if failed is policies.Timeout, RetryCost
// otherwise, when the quota holds that many.
func (q *AWS) Withdraw(_ time.Duration, failed policies.Outcome) (bool, Receipt) {
	paid, cost := PaidRetryCost, q.cfg.RetryCost
	if failed == policies.Timeout {
		paid, cost = PaidTimeoutCost, q.cfg.TimeoutCost
	}
	if q.tokens < int64(cost) {
		q.stats.Denied++
		return false, NoReceipt
	}
	q.tokens -= int64(cost)
	q.stats.Allowed++
	return true, paid
}

// Deposit puts back SuccessRefund, plus the cost paid when retry, up to
// Capacity.
func (q *AWS) Deposit(_ time.Duration, retry bool, paid Receipt) {
	q.stats.Successes++
	back := int64(q.cfg.SuccessRefund)
	if retry {
		if c := q.Cost(paid); c > 0 {
			back += int64(c)
			q.stats.Refunds++
		}
	}
	q.tokens = min(q.tokens+back, int64(q.cfg.Capacity))
}

// Cost returns the tokens a retry with receipt paid cost: RetryCost,
// TimeoutCost, or 0 for another receipt.
func (q *AWS) Cost(paid Receipt) int {
	switch paid {
	case PaidRetryCost:
		return q.cfg.RetryCost
	case PaidTimeoutCost:
		return q.cfg.TimeoutCost
	}
	return 0
}

// Tokens returns the tokens left, in [0, Capacity].
func (q *AWS) Tokens() float64 { return float64(q.tokens) }

// Stats returns the quota's counters.
func (q *AWS) Stats() AWSStats { return q.stats }

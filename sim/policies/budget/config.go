package budget

import (
	"errors"
	"fmt"
	"math"
)

// Defaults for Bucket, from the source's RetryBudget class.
const (
	// DefaultRatio is the default deposit per success, 0.1 token: retries
	// may be about 10 % of successful traffic.
	DefaultRatio = 0.1
	// DefaultCapacity is the default bucket size, 100 tokens.
	DefaultCapacity = 100.0
	// DefaultMinRetriesPerSec is the default reserve rate, 1 retry per
	// second (the source's min_per_sec; Finagle's default is 10).
	DefaultMinRetriesPerSec = 1.0

	// MaxRatio is the largest Ratio accepted (the same bound as Finagle's
	// on percentCanRetry).
	MaxRatio = 1000.0
	// MaxCapacity is the largest Capacity accepted, in tokens.
	MaxCapacity = 1e9
	// MaxMinRetriesPerSec is the largest MinRetriesPerSec accepted.
	MaxMinRetriesPerSec = 10000.0
)

// ErrInvalidConfig is wrapped by every error the constructors return.
var ErrInvalidConfig = errors.New("budget: invalid config")

// Config configures a Bucket. Start from DefaultConfig; the zero Config is
// not valid (its Capacity is 0).
type Config struct {
	// Ratio is the number of tokens one success deposits ("ratio" in the
	// source's RetryBudget class). It is not Finagle's percentCanRetry:
	// Finagle deposits per request, successful or not (see Finagle).
	// Default 0.1; range 0 or [1e-6, MaxRatio].
	Ratio float64
	// Capacity is the most tokens the bucket holds, and its initial level.
	// Default 100; range [1, MaxCapacity].
	Capacity float64
	// MinRetriesPerSec is the rate, in retries per second, of the reserve
	// that allows retries even when the bucket is empty (Finagle's
	// minRetriesPerSec). 0 disables the reserve. Default 1; range
	// [0, MaxMinRetriesPerSec].
	MinRetriesPerSec float64
	// Earn says which successes deposit Ratio: EarnEverySuccess (the zero
	// value and the default) or EarnFirstAttempt. It matters only to
	// Deposit; RecordSuccess always deposits.
	Earn Earn
}

// DefaultConfig returns Ratio 0.1, Capacity 100, MinRetriesPerSec 1.
func DefaultConfig() Config {
	return Config{Ratio: DefaultRatio, Capacity: DefaultCapacity, MinRetriesPerSec: DefaultMinRetriesPerSec}
}

// Validate reports the first problem with c, wrapped around
// ErrInvalidConfig, or nil.
func (c Config) Validate() error {
	switch {
	case !(c.Ratio == 0 || c.Ratio >= 1e-6 && c.Ratio <= MaxRatio):
		return fmt.Errorf("%w: Ratio %v not 0 or in [1e-6, %v]", ErrInvalidConfig, c.Ratio, MaxRatio)
	case !(c.Capacity >= 1 && c.Capacity <= MaxCapacity):
		return fmt.Errorf("%w: Capacity %v not in [1, %v]", ErrInvalidConfig, c.Capacity, MaxCapacity)
	case !(c.MinRetriesPerSec == 0 || c.MinRetriesPerSec >= 1e-6 && c.MinRetriesPerSec <= MaxMinRetriesPerSec):
		return fmt.Errorf("%w: MinRetriesPerSec %v not 0 or in [1e-6, %v]", ErrInvalidConfig, c.MinRetriesPerSec, MaxMinRetriesPerSec)
	case c.Earn > EarnFirstAttempt:
		return fmt.Errorf("%w: Earn %v is neither every_success nor first_attempt", ErrInvalidConfig, c.Earn)
	}
	return nil
}

// Defaults for Concurrency, from Envoy's
// config.cluster.v3.CircuitBreakers.Thresholds.RetryBudget.
const (
	// DefaultBudgetPercent is Envoy's default budget_percent, 20 %.
	DefaultBudgetPercent = 20.0
	// DefaultMinRetryConcurrency is Envoy's default min_retry_concurrency, 3.
	DefaultMinRetryConcurrency = 3
)

// ConcurrencyConfig configures a Concurrency budget. Start from
// DefaultConcurrencyConfig. The zero ConcurrencyConfig is invalid: with
// BudgetPercent and MinRetryConcurrency both 0 no retry could ever start,
// which is no budget but a switch (Envoy fills an empty retry_budget with
// its defaults, 20 % and 3; Go cannot tell an empty config from explicit
// zeros, so it is refused instead).
type ConcurrencyConfig struct {
	// BudgetPercent is the most retries in flight as a percentage of the
	// active (and pending) requests (Envoy's budget_percent). Default 20;
	// range [0, 100].
	BudgetPercent float64
	// MinRetryConcurrency is the floor of the limit, in retries in flight
	// (Envoy's min_retry_concurrency). Default 3; must be >= 0.
	MinRetryConcurrency int
}

// DefaultConcurrencyConfig returns BudgetPercent 20, MinRetryConcurrency 3.
func DefaultConcurrencyConfig() ConcurrencyConfig {
	return ConcurrencyConfig{BudgetPercent: DefaultBudgetPercent, MinRetryConcurrency: DefaultMinRetryConcurrency}
}

// Validate reports the first problem with c, wrapped around
// ErrInvalidConfig, or nil.
func (c ConcurrencyConfig) Validate() error {
	switch {
	case !(c.BudgetPercent >= 0 && c.BudgetPercent <= 100):
		return fmt.Errorf("%w: BudgetPercent %v not in [0, 100]", ErrInvalidConfig, c.BudgetPercent)
	case c.MinRetryConcurrency < 0:
		return fmt.Errorf("%w: MinRetryConcurrency %d is negative", ErrInvalidConfig, c.MinRetryConcurrency)
	case c.BudgetPercent == 0 && c.MinRetryConcurrency == 0:
		return fmt.Errorf("%w: BudgetPercent 0 and MinRetryConcurrency 0 refuse every retry "+
			"(Envoy's defaults are 20 and 3; to disable retries use retry MaxAttempts 1)", ErrInvalidConfig)
	}
	return nil
}

// micro converts tokens to millionths of a token, rounding to nearest.
func micro(tokens float64) int64 { return int64(math.Round(tokens * scale)) }

// scale is the number of fixed-point units in one token.
const scale = 1e6

// Earn says which successes deposit into a Bucket.
type Earn uint8

const (
	// EarnEverySuccess: every successful attempt deposits Ratio, first
	// attempts and retries alike (the source's RetryBudget, and the
	// default).
	EarnEverySuccess Earn = iota
	// EarnFirstAttempt: only a successful first attempt deposits; a retry
	// that succeeds pays nothing back, so the retries' own successes
	// cannot refill the bucket that paid for them, and the deposits
	// measure the first attempts' success rate alone.
	EarnFirstAttempt
)

// String returns the file's name of e: "every_success" or
// "first_attempt".
func (e Earn) String() string {
	switch e {
	case EarnEverySuccess:
		return "every_success"
	case EarnFirstAttempt:
		return "first_attempt"
	}
	return fmt.Sprintf("Earn(%d)", uint8(e))
}

func wrapInvalid(msg string) error { return fmt.Errorf("%w: %s", ErrInvalidConfig, msg) }

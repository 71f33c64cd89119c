package hedge

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

// Defaults, from gRPC's retry design (proposal A6, "gRPC Retry Design",
// hedgingPolicy) and Envoy's route hedge_policy.
const (
	// DefaultMaxAttempts is the default number of copies in total, the
	// first included: 2, that is at most one hedge.
	DefaultMaxAttempts = 2
	// DefaultDelay is the default hedging delay: 0, gRPC's default
	// hedgingDelay, which sends every copy at once and so doubles the load
	// of every call with the default MaxAttempts. Size it: The Tail at
	// Scale recommends the dependency's p95 latency (about 5 % more load).
	DefaultDelay = time.Duration(0)
	// DefaultInitialRequests is Envoy's default initial_requests: 1.
	DefaultInitialRequests = 1

	// MaxMaxAttempts is the largest MaxAttempts New accepts: 5, gRPC's
	// cap on maxAttempts (gRPC lowers larger values to 5; New refuses them).
	MaxMaxAttempts = 5

	// Never is the instant of a hedge that is not due at all: a Decision's
	// NextAt when no further timed hedge will be sent, and a Config.Delay
	// that disables the timed hedges (Envoy's model, where copies are sent
	// only at the start and on per-try timeouts). It is the largest
	// time.Duration.
	Never = time.Duration(math.MaxInt64)
)

// ErrInvalidConfig is wrapped by every error New returns.
var ErrInvalidConfig = errors.New("hedge: invalid config")

// Config configures a Policy. Start from DefaultConfig; the zero Config is
// not valid (MaxAttempts and InitialRequests must be at least 1).
type Config struct {
	// MaxAttempts is the number of copies of a call in total, the first
	// included (gRPC's maxAttempts). 1 disables hedging. Default 2; range
	// [1, MaxMaxAttempts].
	MaxAttempts int

	// Delay is gRPC's hedgingDelay: the first InitialRequests copies are
	// sent at once, and each further copy Delay after the one before
	// (without failures: copy k, counted from 0 after the initial ones, at
	// (k+1)*Delay from the call's start). 0 sends all MaxAttempts copies at
	// once; Never sends none on a timer. Default 0 (gRPC's); must be >= 0.
	Delay time.Duration

	// NonFatal is gRPC's nonFatalStatusCodes: a copy that fails with one
	// of these outcomes lets the call go on, and the next copy in line is
	// sent at once, short-cutting its delay. A copy that fails with any
	// other outcome ends the call with that failure, and the other copies
	// are cancelled. Default empty (gRPC's): every failure is fatal. It may
	// contain only Error, Timeout, Rejected and BulkheadFull; CircuitOpen,
	// DeadlineExceeded and Cancelled are always fatal.
	NonFatal OutcomeSet

	// InitialRequests is Envoy's initial_requests: the number of copies
	// sent at once when the call starts. Default 1; range [1, MaxAttempts].
	InitialRequests int

	// AdditionalChance is Envoy's additional_request_chance as a fraction
	// (0.05 for Envoy's 5 percent): with this probability one more copy is
	// sent at once at the start, if MaxAttempts allows. The caller draws
	// the variate. Default 0; range [0, 1].
	AdditionalChance float64

	// OnPerTryTimeout is Envoy's hedge_on_per_try_timeout: when true, a
	// per-try timeout does not cancel the copy in flight; the next copy is
	// sent alongside it and the first good answer of any copy wins. When
	// false (the default), a per-try timeout cancels the copy, which counts
	// as having failed with policies.Timeout.
	OnPerTryTimeout bool
}

// DefaultConfig returns the defaults: 2 copies, hedging delay 0 (gRPC's
// default: both copies at once), every failure fatal, 1 initial request, no
// additional chance, per-try timeouts cancel their copy.
func DefaultConfig() Config {
	return Config{
		MaxAttempts:     DefaultMaxAttempts,
		Delay:           DefaultDelay,
		InitialRequests: DefaultInitialRequests,
	}
}

// Validate reports the first problem with c, wrapped around
// ErrInvalidConfig, or nil.
func (c Config) Validate() error {
	switch {
	case c.MaxAttempts < 1 || c.MaxAttempts > MaxMaxAttempts:
		return fmt.Errorf("%w: MaxAttempts %d not in [1, %d] (gRPC caps maxAttempts at %d)", ErrInvalidConfig, c.MaxAttempts, MaxMaxAttempts, MaxMaxAttempts)
	case c.Delay < 0:
		return fmt.Errorf("%w: Delay %v: must be >= 0", ErrInvalidConfig, c.Delay)
	case c.InitialRequests < 1 || c.InitialRequests > c.MaxAttempts:
		return fmt.Errorf("%w: InitialRequests %d not in [1, MaxAttempts %d]", ErrInvalidConfig, c.InitialRequests, c.MaxAttempts)
	case !(c.AdditionalChance >= 0 && c.AdditionalChance <= 1): // NaN fails too
		return fmt.Errorf("%w: AdditionalChance %v not in [0, 1]", ErrInvalidConfig, c.AdditionalChance)
	}
	if bad := c.NonFatal &^ nonFatalAllowed; bad != 0 {
		for o := policies.Outcome(0); o < 16; o++ {
			if bad.Has(o) {
				return fmt.Errorf("%w: NonFatal: outcome %v is always fatal", ErrInvalidConfig, o)
			}
		}
	}
	return nil
}

// OutcomeSet is policies.OutcomeSet, a set of outcomes.
type OutcomeSet = policies.OutcomeSet

// nonFatalAllowed holds the outcomes NonFatal may contain: the failures of
// one copy after which another copy may still succeed.
const nonFatalAllowed = OutcomeSet(1<<policies.Error | 1<<policies.Timeout |
	1<<policies.Rejected | 1<<policies.BulkheadFull)

// NewOutcomeSet returns the set holding the given outcomes
// (policies.NewOutcomeSet).
func NewOutcomeSet(outcomes ...policies.Outcome) OutcomeSet {
	return policies.NewOutcomeSet(outcomes...)
}

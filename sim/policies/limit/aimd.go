package limit

import (
	"fmt"
	"time"
)

// AIMDConfig configures an AIMD limit. The defaults are those of the
// AIMDLimiter in «Устойчивость: circuit breaker, retry, bulkhead,
// backpressure, деградация» ("Resilience: circuit breaker, retry, bulkhead,
// backpressure, degradation"), section 6 (limit=20, min_limit=4, max_limit=400,
// rtt_threshold=0.25 s, backoff=0.9, growth when in_flight >= 0.9 x limit).
// Netflix's AIMDLimit differs: min 20, max 200, timeout 5 s, and it adds 1
// (not 1/limit) when in-flight >= limit/2.
type AIMDConfig struct {
	// InitialLimit is the limit before any sample. Default 20.
	InitialLimit int
	// MinLimit is the floor of the limit. Default 4.
	MinLimit int
	// MaxLimit is the ceiling of the limit. Default 400.
	MaxLimit int
	// Timeout is the RTT above which a sample counts as a drop (the
	// resilience article's rtt_threshold, section 6; Netflix's timeout). Default 250 ms.
	Timeout time.Duration
	// BackoffRatio multiplies the limit on a drop; in (0, 1). Default 0.9.
	BackoffRatio float64
	// Utilization is the fraction of the limit that must be in flight for
	// a good sample to grow the limit by 1/limit; in (0, 1]. Default 0.9.
	Utilization float64
}

// DefaultAIMDConfig returns the resilience article's parameters (section 6).
func DefaultAIMDConfig() AIMDConfig {
	return AIMDConfig{
		InitialLimit: 20,
		MinLimit:     4,
		MaxLimit:     400,
		Timeout:      250 * time.Millisecond,
		BackoffRatio: 0.9,
		Utilization:  0.9,
	}
}

// Validate reports the first invalid field, wrapping ErrInvalidConfig, or
// nil.
func (c AIMDConfig) Validate() error {
	if err := validateBounds(c.InitialLimit, c.MinLimit, c.MaxLimit); err != nil {
		return err
	}
	if c.Timeout <= 0 {
		return fmt.Errorf("%w: Timeout %v: must be positive", ErrInvalidConfig, c.Timeout)
	}
	if !(c.BackoffRatio > 0 && c.BackoffRatio < 1) {
		return fmt.Errorf("%w: BackoffRatio %v: must be in (0, 1)", ErrInvalidConfig, c.BackoffRatio)
	}
	if !(c.Utilization > 0 && c.Utilization <= 1) {
		return fmt.Errorf("%w: Utilization %v: must be in (0, 1]", ErrInvalidConfig, c.Utilization)
	}
	return nil
}

// AIMD is an additive-increase, multiplicative-decrease limit. The zero
// value is not usable; call NewAIMD.
type AIMD struct {
	cfg   AIMDConfig
	limit float64
}

// NewAIMD returns an AIMD limit, or an error if cfg is invalid.
func NewAIMD(cfg AIMDConfig) (*AIMD, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("limit.NewAIMD: %w", err)
	}
	return &AIMD{cfg: cfg, limit: float64(cfg.InitialLimit)}, nil
}

// OnSample applies one sample: on a drop or rtt > Timeout the limit becomes
// max(MinLimit, limit x BackoffRatio); otherwise, when inflight >=
// Utilization x Limit(), it becomes min(MaxLimit, limit + 1/limit). now is
// not used.
//
// The growth test compares with the enforced integer limit, not the
// fractional one as the resilience article's code (section 6) does: a
// Limiter never admits more than floor(limit) calls, so with the fractional
// test a limit such as 4.49 (0.9 x 4.49 > 4) could never grow again. For large limits the two tests
// differ by less than one call.
func (a *AIMD) OnSample(now, rtt time.Duration, inflight int, dropped bool) {
	switch {
	case dropped || rtt > a.cfg.Timeout:
		a.limit = max(float64(a.cfg.MinLimit), a.limit*a.cfg.BackoffRatio)
	case float64(inflight) >= float64(a.Limit())*a.cfg.Utilization:
		a.limit = min(float64(a.cfg.MaxLimit), a.limit+1/a.limit)
	}
}

// Limit returns the integer part of the estimate.
func (a *AIMD) Limit() int { return int(a.limit) }

// Estimate returns the fractional limit kept internally.
func (a *AIMD) Estimate() float64 { return a.limit }

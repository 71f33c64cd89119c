package limit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// VegasConfig configures a Vegas limit. The defaults are those of Netflix's
// VegasLimit.Builder (alpha = 3 x log10(limit), beta = 6 x log10(limit),
// threshold = log10(limit), increase and decrease by log10(limit),
// smoothing 1, probeMultiplier 30), with the bounds (20, 4, 400) of the
// AIMDLimiter in «Устойчивость: circuit breaker, retry, bulkhead,
// backpressure, деградация», section 6; Netflix's Vegas defaults are maxConcurrency 1000 and a floor
// of 1. Here log10(limit) means max(1, floor(log10(limit))), Netflix's
// Log10RootFunction (which switches to sqrt above 1000; this package does
// not).
type VegasConfig struct {
	// InitialLimit is the limit before any sample. Default 20.
	InitialLimit int
	// MinLimit is the floor of the limit. Default 4.
	MinLimit int
	// MaxLimit is the ceiling of the limit. Default 400.
	MaxLimit int
	// Alpha multiplies log10(limit) to give alpha, the queue size below
	// which the limit grows by log10(limit). Default 3.
	Alpha float64
	// Beta multiplies log10(limit) to give beta, the queue size above
	// which the limit shrinks by log10(limit). Default 6; at least Alpha.
	Beta float64
	// Threshold multiplies log10(limit) to give the queue size at or below
	// which the limit grows fast, by beta. Default 1; at most Alpha.
	Threshold float64
	// Smoothing weighs the new limit against the old one; in (0, 1].
	// Default 1 (no smoothing).
	Smoothing float64
	// ProbeMultiplier: every about jitter x ProbeMultiplier x limit
	// samples, rtt_noload is reset to the current sample so that it can
	// follow a latency that has risen for good. Default 30; at least 1.
	ProbeMultiplier int
	// Rand, if not nil, draws the probe jitter uniformly from [0.5, 1), as
	// Netflix does. The caller owns it. If nil, the jitter is fixed at
	// 0.75, its mean.
	Rand *rand.Rand
}

// DefaultVegasConfig returns Netflix's Vegas parameters with the resilience
// article's bounds (section 6) and no random jitter.
func DefaultVegasConfig() VegasConfig {
	return VegasConfig{
		InitialLimit:    20,
		MinLimit:        4,
		MaxLimit:        400,
		Alpha:           3,
		Beta:            6,
		Threshold:       1,
		Smoothing:       1,
		ProbeMultiplier: 30,
	}
}

// Validate reports the first invalid field, wrapping ErrInvalidConfig, or
// nil.
func (c VegasConfig) Validate() error {
	if err := validateBounds(c.InitialLimit, c.MinLimit, c.MaxLimit); err != nil {
		return err
	}
	if !(c.Threshold >= 0) || math.IsInf(c.Threshold, 0) {
		return fmt.Errorf("%w: Threshold %v: must be finite and at least 0", ErrInvalidConfig, c.Threshold)
	}
	if !(c.Alpha >= c.Threshold) || math.IsInf(c.Alpha, 0) {
		return fmt.Errorf("%w: Alpha %v: must be finite and at least Threshold %v", ErrInvalidConfig, c.Alpha, c.Threshold)
	}
	if !(c.Beta >= c.Alpha) || math.IsInf(c.Beta, 0) {
		return fmt.Errorf("%w: Beta %v: must be finite and at least Alpha %v", ErrInvalidConfig, c.Beta, c.Alpha)
	}
	if !(c.Smoothing > 0 && c.Smoothing <= 1) {
		return fmt.Errorf("%w: Smoothing %v: must be in (0, 1]", ErrInvalidConfig, c.Smoothing)
	}
	if c.ProbeMultiplier < 1 {
		return fmt.Errorf("%w: ProbeMultiplier %d: must be at least 1", ErrInvalidConfig, c.ProbeMultiplier)
	}
	return nil
}

// Vegas is Netflix's TCP-Vegas-style limit. The zero value is not usable;
// call NewVegas.
type Vegas struct {
	cfg        VegasConfig
	limit      float64
	noload     time.Duration // rtt_noload; 0 until the first sample
	probeCount int
	jitter     float64
}

// NewVegas returns a Vegas limit, or an error if cfg is invalid.
func NewVegas(cfg VegasConfig) (*Vegas, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("limit.NewVegas: %w", err)
	}
	v := &Vegas{cfg: cfg, limit: float64(cfg.InitialLimit)}
	v.resetJitter()
	return v, nil
}

func (v *Vegas) resetJitter() {
	if v.cfg.Rand == nil {
		v.jitter = 0.75
		return
	}
	v.jitter = 0.5 + 0.5*v.cfg.Rand.Float64()
}

// log10Root is Netflix's Log10RootFunction: max(1, floor(log10(n))).
func log10Root(n float64) float64 {
	if n < 10 {
		return 1
	}
	return math.Floor(math.Log10(n))
}

// OnSample applies one sample, following Netflix's VegasLimit:
//
//	every jitter x ProbeMultiplier x limit samples: rtt_noload = rtt; return
//	if rtt_noload == 0 or rtt < rtt_noload:         rtt_noload = rtt; return
//	queue = ceil(limit x (1 - rtt_noload/rtt))
//	if dropped:                      limit -= log10(limit)
//	else if inflight x 2 < limit:    return            // app-limited
//	else if queue <= threshold:      limit += beta     // no queueing
//	else if queue < alpha:           limit += log10(limit)
//	else if queue > beta:            limit -= log10(limit)
//	limit = old x (1-Smoothing) + clamp(limit, Min, Max) x Smoothing
//
// Samples with rtt <= 0 are ignored. now is not used.
func (v *Vegas) OnSample(now, rtt time.Duration, inflight int, dropped bool) {
	if rtt <= 0 {
		return
	}
	v.probeCount++
	if v.jitter*float64(v.cfg.ProbeMultiplier)*v.limit <= float64(v.probeCount) {
		v.resetJitter()
		v.probeCount = 0
		v.noload = rtt
		return
	}
	if v.noload == 0 || rtt < v.noload {
		v.noload = rtt
		return
	}
	queue := math.Ceil(v.limit * (1 - float64(v.noload)/float64(rtt)))
	lg := log10Root(v.limit)
	var next float64
	switch {
	case dropped:
		next = v.limit - lg
	case float64(inflight)*2 < v.limit:
		return
	case queue <= v.cfg.Threshold*lg:
		next = v.limit + v.cfg.Beta*lg
	case queue < v.cfg.Alpha*lg:
		next = v.limit + lg
	case queue > v.cfg.Beta*lg:
		next = v.limit - lg
	default:
		return
	}
	next = clamp(next, float64(v.cfg.MinLimit), float64(v.cfg.MaxLimit))
	v.limit = (1-v.cfg.Smoothing)*v.limit + v.cfg.Smoothing*next
}

// Limit returns the integer part of the estimate.
func (v *Vegas) Limit() int { return int(v.limit) }

// Estimate returns the fractional limit kept internally.
func (v *Vegas) Estimate() float64 { return v.limit }

// NoLoadRTT returns rtt_noload, the RTT taken as the latency without
// queueing; 0 before any sample.
func (v *Vegas) NoLoadRTT() time.Duration { return v.noload }

package limit

import (
	"fmt"
	"math"
	"time"
)

// Gradient2Config configures a Gradient2 limit. The algorithm parameters
// (Smoothing 0.2, QueueSize 4, LongWindow 600 samples, a warm-up of 10
// samples) are the defaults of Netflix's Gradient2Limit.Builder;
// Tolerance 1.5 is the rttTolerance of Netflix's earlier Gradient2Limit
// (the current Netflix code has none, which is Tolerance 1). The bounds
// (20, 4, 400) are those of the AIMDLimiter in «Устойчивость: circuit
// breaker, retry, bulkhead, backpressure, деградация», section 6, so that all three algorithms
// share them; Netflix's Gradient2 defaults are minLimit 20, maxConcurrency
// 200.
type Gradient2Config struct {
	// InitialLimit is the limit before any sample. Default 20.
	InitialLimit int
	// MinLimit is the floor of the limit. Default 4.
	MinLimit int
	// MaxLimit is the ceiling of the limit (Netflix's maxConcurrency).
	// Default 400.
	MaxLimit int
	// Smoothing weighs a new estimate against the current limit:
	// limit = limit x (1-Smoothing) + estimate x Smoothing; in (0, 1].
	// Default 0.2.
	Smoothing float64
	// QueueSize is how far the estimate may grow above gradient x limit
	// per sample while latency is normal (Netflix's queueSize), in calls;
	// at least 0. Default 4.
	QueueSize float64
	// Tolerance is how much the short-term RTT may exceed the long-term
	// RTT before the limit shrinks: gradient = min(1, Tolerance x
	// longRtt / shortRtt); at least 1. Default 1.5.
	Tolerance float64
	// LongWindow is the number of samples of the long-term RTT's
	// exponential average (factor 2/(LongWindow+1)); at least 1.
	// Default 600.
	LongWindow int
	// Warmup is the number of first samples the long-term RTT averages
	// plainly before switching to the exponential average; at least 1.
	// Default 10.
	Warmup int
}

// DefaultGradient2Config returns Netflix's Gradient2 parameters with the
// resilience article's bounds (section 6).
func DefaultGradient2Config() Gradient2Config {
	return Gradient2Config{
		InitialLimit: 20,
		MinLimit:     4,
		MaxLimit:     400,
		Smoothing:    0.2,
		QueueSize:    4,
		Tolerance:    1.5,
		LongWindow:   600,
		Warmup:       10,
	}
}

// Validate reports the first invalid field, wrapping ErrInvalidConfig, or
// nil.
func (c Gradient2Config) Validate() error {
	if err := validateBounds(c.InitialLimit, c.MinLimit, c.MaxLimit); err != nil {
		return err
	}
	if !(c.Smoothing > 0 && c.Smoothing <= 1) {
		return fmt.Errorf("%w: Smoothing %v: must be in (0, 1]", ErrInvalidConfig, c.Smoothing)
	}
	if !(c.QueueSize >= 0) || math.IsInf(c.QueueSize, 0) {
		return fmt.Errorf("%w: QueueSize %v: must be finite and at least 0", ErrInvalidConfig, c.QueueSize)
	}
	if !(c.Tolerance >= 1) || math.IsInf(c.Tolerance, 0) {
		return fmt.Errorf("%w: Tolerance %v: must be finite and at least 1", ErrInvalidConfig, c.Tolerance)
	}
	if c.LongWindow < 1 {
		return fmt.Errorf("%w: LongWindow %d: must be at least 1", ErrInvalidConfig, c.LongWindow)
	}
	if c.Warmup < 1 {
		return fmt.Errorf("%w: Warmup %d: must be at least 1", ErrInvalidConfig, c.Warmup)
	}
	return nil
}

// longRTTDecay is the factor Gradient2 applies to the long-term RTT when
// it is more than twice the short-term RTT: Netflix's 0.95.
const longRTTDecay = 0.95

// Gradient2 is Netflix's gradient limit: it shrinks the limit in
// proportion to how far the short-term RTT has risen above the long-term
// RTT. The zero value is not usable; call NewGradient2.
type Gradient2 struct {
	cfg    Gradient2Config
	limit  float64
	short  float64 // last RTT, ns
	long   float64 // exponentially averaged RTT, ns
	sum    float64 // warm-up sum, ns
	n      int     // warm-up samples so far
	factor float64 // 2 / (LongWindow + 1)
}

// NewGradient2 returns a Gradient2 limit, or an error if cfg is invalid.
func NewGradient2(cfg Gradient2Config) (*Gradient2, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("limit.NewGradient2: %w", err)
	}
	return &Gradient2{
		cfg:    cfg,
		limit:  float64(cfg.InitialLimit),
		factor: 2 / float64(cfg.LongWindow+1),
	}, nil
}

// OnSample applies one sample, following Netflix's Gradient2Limit._update:
//
//	shortRtt = rtt
//	longRtt  = plain mean for the first Warmup samples, then
//	           longRtt x (1-f) + rtt x f with f = 2/(LongWindow+1)
//	if longRtt / shortRtt > 2 { longRtt *= 0.95 }  // recover after load
//	if inflight < limit/2 { return }                // app-limited: hold
//	gradient = clamp(Tolerance x longRtt / shortRtt, 0.5, 1)
//	estimate = limit x gradient + QueueSize
//	limit    = clamp(limit x (1-Smoothing) + estimate x Smoothing, Min, Max)
//
// The recovery factor 0.95 is Netflix's (Gradient2Limit.java in
// Netflix/concurrency-limits); platinummonkey/go-concurrency-limits uses
// 0.9. Netflix computes the gradient from longRtt before the decay, this
// code after it; the gradient is 1 either way, since the decay applies only
// when longRtt/shortRtt > 2 and Tolerance >= 1.
//
// dropped is not used (as in Netflix's Gradient2); a drop shows up as a
// long rtt. Samples with rtt <= 0 are ignored. now is not used.
func (g *Gradient2) OnSample(now, rtt time.Duration, inflight int, dropped bool) {
	if rtt <= 0 {
		return
	}
	r := float64(rtt)
	g.short = r
	if g.n < g.cfg.Warmup {
		g.n++
		g.sum += r
		g.long = g.sum / float64(g.n)
	} else {
		g.long = g.long*(1-g.factor) + r*g.factor
	}
	if g.long/g.short > 2 {
		g.long *= longRTTDecay
	}
	if float64(inflight) < g.limit/2 {
		return
	}
	gradient := clamp(g.cfg.Tolerance*g.long/g.short, 0.5, 1)
	est := g.limit*gradient + g.cfg.QueueSize
	est = g.limit*(1-g.cfg.Smoothing) + est*g.cfg.Smoothing
	g.limit = clamp(est, float64(g.cfg.MinLimit), float64(g.cfg.MaxLimit))
}

// Limit returns the integer part of the estimate.
func (g *Gradient2) Limit() int { return int(g.limit) }

// Estimate returns the fractional limit kept internally.
func (g *Gradient2) Estimate() float64 { return g.limit }

// LongRTT returns the long-term (smoothed) RTT; 0 before any sample.
func (g *Gradient2) LongRTT() time.Duration { return time.Duration(g.long) }

// ShortRTT returns the short-term RTT (the last sample); 0 before any
// sample.
func (g *Gradient2) ShortRTT() time.Duration { return time.Duration(g.short) }

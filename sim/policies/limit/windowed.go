package limit

import (
	"fmt"
	"time"
)

// WindowedConfig configures a Windowed wrapper. The defaults are those of
// Netflix's WindowedLimit (minWindowTime 1 s, maxWindowTime 1 s,
// windowSize 10, minRttThreshold 100 us) with its default average sample
// window.
type WindowedConfig struct {
	// MinWindow is the shortest sampling window. Default 1 s.
	MinWindow time.Duration
	// MaxWindow is the longest sampling window; at least MinWindow.
	// Default 1 s. A window lasts clamp(2 x minimum RTT of the previous
	// window, MinWindow, MaxWindow).
	MaxWindow time.Duration
	// WindowSize is the fewest samples a window needs to be passed on; a
	// window with fewer is discarded. Default 10; at least 1.
	WindowSize int
	// MinRTT: samples with a shorter RTT are ignored (Netflix's
	// minRttThreshold). Default 100 us; at least 0.
	MinRTT time.Duration
}

// DefaultWindowedConfig returns Netflix's WindowedLimit defaults.
func DefaultWindowedConfig() WindowedConfig {
	return WindowedConfig{
		MinWindow:  time.Second,
		MaxWindow:  time.Second,
		WindowSize: 10,
		MinRTT:     100 * time.Microsecond,
	}
}

// Validate reports the first invalid field, wrapping ErrInvalidConfig, or
// nil.
func (c WindowedConfig) Validate() error {
	if c.MinWindow <= 0 {
		return fmt.Errorf("%w: MinWindow %v: must be positive", ErrInvalidConfig, c.MinWindow)
	}
	if c.MaxWindow < c.MinWindow {
		return fmt.Errorf("%w: MaxWindow %v: must be at least MinWindow %v", ErrInvalidConfig, c.MaxWindow, c.MinWindow)
	}
	if c.WindowSize < 1 {
		return fmt.Errorf("%w: WindowSize %d: must be at least 1", ErrInvalidConfig, c.WindowSize)
	}
	if c.MinRTT < 0 {
		return fmt.Errorf("%w: MinRTT %v: must not be negative", ErrInvalidConfig, c.MinRTT)
	}
	return nil
}

// Windowed wraps an Algorithm so that it sees one aggregated sample per
// sampling window instead of one per call: the mean RTT of the window, the
// largest in-flight count, and whether any call dropped. Per-call updates
// react to the same congestion once per call in flight, which makes Vegas
// and Gradient2 overshoot; Netflix wraps them in a WindowedLimit for this
// reason. AIMD, as written in «Устойчивость: circuit breaker, retry,
// bulkhead, backpressure, деградация», section 6, runs per call. The zero
// value is not usable; call NewWindowed.
type Windowed struct {
	cfg      WindowedConfig
	delegate Algorithm
	next     time.Duration // instant after which the window closes
	count    int
	sum      time.Duration
	minRTT   time.Duration
	maxIn    int
	dropped  bool
}

// NewWindowed returns a Windowed wrapper around delegate, or an error if
// delegate is nil or cfg is invalid.
func NewWindowed(cfg WindowedConfig, delegate Algorithm) (*Windowed, error) {
	if delegate == nil {
		return nil, fmt.Errorf("limit.NewWindowed: %w: nil delegate", ErrInvalidConfig)
	}
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("limit.NewWindowed: %w", err)
	}
	return &Windowed{cfg: cfg, delegate: delegate}, nil
}

// OnSample adds one sample to the current window. When now is past the
// window's end, the window closes: it is passed to the delegate as a
// single sample if it holds at least WindowSize samples, and the next
// window ends at now + clamp(2 x its minimum RTT, MinWindow, MaxWindow).
// The first window closes at the first sample, as in Netflix's code.
func (w *Windowed) OnSample(now, rtt time.Duration, inflight int, dropped bool) {
	if rtt < w.cfg.MinRTT || rtt <= 0 {
		return
	}
	if w.count == 0 || rtt < w.minRTT {
		w.minRTT = rtt
	}
	w.count++
	w.sum += rtt
	w.maxIn = max(w.maxIn, inflight)
	w.dropped = w.dropped || dropped
	if now <= w.next {
		return
	}
	w.next = now + min(max(2*w.minRTT, w.cfg.MinWindow), w.cfg.MaxWindow)
	if w.count >= w.cfg.WindowSize {
		w.delegate.OnSample(now, w.sum/time.Duration(w.count), w.maxIn, w.dropped)
	}
	w.count, w.sum, w.minRTT, w.maxIn, w.dropped = 0, 0, 0, 0, false
}

// Limit returns the delegate's limit.
func (w *Windowed) Limit() int { return w.delegate.Limit() }

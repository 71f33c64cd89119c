package lifo

import (
	"errors"
	"fmt"
	"time"
)

// Discipline selects how a Policy chooses the Mode.
type Discipline uint8

const (
	// Adaptive serves FIFO normally and LIFO under overload.
	Adaptive Discipline = iota
	// AlwaysFIFO always serves the oldest request first.
	AlwaysFIFO
	// AlwaysLIFO always serves the newest request first.
	AlwaysLIFO
)

// String returns "adaptive", "fifo" or "lifo".
func (d Discipline) String() string {
	switch d {
	case Adaptive:
		return "adaptive"
	case AlwaysFIFO:
		return "fifo"
	case AlwaysLIFO:
		return "lifo"
	}
	return "unknown"
}

// Mode is the order a queue is served in at a given instant.
type Mode uint8

const (
	// FIFO serves the oldest request first.
	FIFO Mode = iota
	// LIFO serves the newest request first.
	LIFO
)

// String returns "fifo" or "lifo".
func (m Mode) String() string {
	switch m {
	case FIFO:
		return "fifo"
	case LIFO:
		return "lifo"
	}
	return "unknown"
}

// Config configures a Policy.
type Config struct {
	// Discipline chooses the serving order. Default Adaptive.
	Discipline Discipline
	// Interval is Fail at Scale's N: the queue counts as overloaded when
	// it has not been empty for longer than Interval, and a request
	// queued while it is not overloaded gets a queue timeout of Interval.
	// Default 100 ms; must be positive.
	Interval time.Duration
	// ShortTimeout is Fail at Scale's M: the queue timeout of a request
	// queued while the queue is overloaded. Default 5 ms; must be positive
	// and at most Interval.
	ShortTimeout time.Duration
	// ControlledDelay turns the queue timeouts (M or N) on. When off, a
	// queued request only expires at the deadline it carries. Default on.
	ControlledDelay bool
	// LIFOThreshold, if positive, also switches Adaptive to LIFO while
	// the queue holds at least this many requests. Default 0 (off).
	LIFOThreshold int
}

// DefaultConfig returns Fail at Scale's values: N = 100 ms, M = 5 ms,
// adaptive LIFO with controlled delay.
func DefaultConfig() Config {
	return Config{
		Discipline:      Adaptive,
		Interval:        100 * time.Millisecond,
		ShortTimeout:    5 * time.Millisecond,
		ControlledDelay: true,
	}
}

// ErrInvalidConfig is wrapped by every error a constructor returns for a
// bad configuration; the message names the field.
var ErrInvalidConfig = errors.New("lifo: invalid config")

// Validate reports the first invalid field, wrapping ErrInvalidConfig, or
// nil.
func (c Config) Validate() error {
	if c.Discipline > AlwaysLIFO {
		return fmt.Errorf("%w: Discipline %d: unknown", ErrInvalidConfig, c.Discipline)
	}
	if c.Interval <= 0 {
		return fmt.Errorf("%w: Interval %v: must be positive", ErrInvalidConfig, c.Interval)
	}
	if c.ShortTimeout <= 0 || c.ShortTimeout > c.Interval {
		return fmt.Errorf("%w: ShortTimeout %v: must be in (0, Interval %v]", ErrInvalidConfig, c.ShortTimeout, c.Interval)
	}
	if c.LIFOThreshold < 0 {
		return fmt.Errorf("%w: LIFOThreshold %d: must not be negative", ErrInvalidConfig, c.LIFOThreshold)
	}
	return nil
}

// Policy decides the queue timeout of new requests and the serving mode,
// from when the queue was last empty. The zero value is not usable; call
// NewPolicy.
type Policy struct {
	cfg       Config
	lastEmpty time.Duration // last instant the queue was seen empty
}

// NewPolicy returns a Policy for a queue that is empty at instant 0, or an
// error if cfg is invalid.
func NewPolicy(cfg Config) (*Policy, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("lifo.NewPolicy: %w", err)
	}
	return &Policy{cfg: cfg}, nil
}

// Config returns the policy's configuration.
func (p *Policy) Config() Config { return p.cfg }

// observe records that the queue holds n requests at now.
func (p *Policy) observe(now time.Duration, n int) {
	if n == 0 {
		p.lastEmpty = now
	}
}

// LastEmpty returns the last instant the policy saw the queue empty.
func (p *Policy) LastEmpty() time.Duration { return p.lastEmpty }

// Overloaded reports whether a queue holding n requests at now has not been
// empty for longer than Interval (Fail at Scale: lastEmptyTime < now - N).
func (p *Policy) Overloaded(now time.Duration, n int) bool {
	p.observe(now, n)
	return p.lastEmpty < now-p.cfg.Interval
}

// Timeout returns the queue timeout for a request about to join a queue
// that holds n requests at now: ShortTimeout (M) when Overloaded, else
// Interval (N). Callers must call it (or Observe) on every enqueue so the
// policy learns when the queue was last empty.
func (p *Policy) Timeout(now time.Duration, n int) time.Duration {
	if p.Overloaded(now, n) {
		return p.cfg.ShortTimeout
	}
	return p.cfg.Interval
}

// Observe tells the policy that the queue holds n requests at now. A
// queue that is empty between enqueues needs it only for n == 0; Timeout,
// Overloaded and Mode observe too.
func (p *Policy) Observe(now time.Duration, n int) { p.observe(now, n) }

// Mode returns the order to serve a queue holding n requests at now.
func (p *Policy) Mode(now time.Duration, n int) Mode {
	switch p.cfg.Discipline {
	case AlwaysFIFO:
		p.observe(now, n)
		return FIFO
	case AlwaysLIFO:
		p.observe(now, n)
		return LIFO
	}
	if p.Overloaded(now, n) || (p.cfg.LIFOThreshold > 0 && n >= p.cfg.LIFOThreshold) {
		return LIFO
	}
	return FIFO
}

package codel

import (
	"errors"
	"fmt"
	"time"
)

// Config holds CoDel's parameters.
type Config struct {
	// Target is the acceptable standing sojourn time (RFC 8289 TARGET).
	// Default 5 ms; must be positive.
	Target time.Duration
	// Interval is how long the sojourn time must stay above Target before
	// CoDel starts dropping, and the base of the drop spacing (RFC 8289
	// INTERVAL). Default 100 ms; must be at least Target.
	Interval time.Duration
	// MaxPacket is the backlog, in requests left in the queue behind the
	// dequeued one, at or below which CoDel never drops (RFC 8289
	// maxpacket, the non-starvation rule). Default 1; 0 still keeps the
	// last request; -1 disables the rule (drop by age alone).
	MaxPacket int
}

// DefaultConfig returns RFC 8289's defaults: Target 5 ms, Interval 100 ms,
// MaxPacket one request.
func DefaultConfig() Config {
	return Config{Target: 5 * time.Millisecond, Interval: 100 * time.Millisecond, MaxPacket: 1}
}

// ErrInvalidConfig is wrapped by every error a constructor returns for a
// bad configuration; the message names the field.
var ErrInvalidConfig = errors.New("codel: invalid config")

// Validate reports the first invalid field, wrapping ErrInvalidConfig, or
// nil.
func (c Config) Validate() error {
	if c.Target <= 0 {
		return fmt.Errorf("%w: Target %v: must be positive", ErrInvalidConfig, c.Target)
	}
	if c.Interval < c.Target {
		return fmt.Errorf("%w: Interval %v: must be at least Target %v", ErrInvalidConfig, c.Interval, c.Target)
	}
	if c.MaxPacket < -1 {
		return fmt.Errorf("%w: MaxPacket %d: must be at least -1", ErrInvalidConfig, c.MaxPacket)
	}
	return nil
}

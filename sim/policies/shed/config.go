package shed

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

// Config configures a Shedder.
type Config struct {
	// Threshold[p] is the utilisation (used / capacity, in [0, 1]) from
	// which requests of class p are shed: a request is admitted when
	// utilisation < Threshold[p]. Each must be in (0, 1], and they must
	// not increase from Critical to Background. Defaults: Critical 1
	// (shed only when full), Normal 0.8, Background 0.5.
	Threshold [policies.NumPriorities]float64
	// RetryAfter is the Retry-After hint sent with a rejection. Default
	// 1 s; must be positive.
	RetryAfter time.Duration
	// Status is the HTTP status of a rejection: 503 (Service
	// Unavailable, the server is overloaded) or 429 (Too Many Requests).
	// Default 503.
	Status int
}

// DefaultConfig returns ressim's thresholds («Устойчивость: circuit
// breaker, retry, bulkhead, backpressure, деградация», section 6, names the
// classes and the bottom-up order but gives no numbers) and its explicit rejection (section 6: 429/503 with
// Retry-After): shed Background above 50 % utilisation, Normal above 80 %,
// Critical only when full; answer 503 with Retry-After 1 s (ressim's
// choice of value).
func DefaultConfig() Config {
	var c Config
	c.Threshold[policies.Critical] = 1
	c.Threshold[policies.Normal] = 0.8
	c.Threshold[policies.Background] = 0.5
	c.RetryAfter = time.Second
	c.Status = 503
	return c
}

// ErrInvalidConfig is wrapped by every error a constructor returns for a
// bad configuration; the message names the field.
var ErrInvalidConfig = errors.New("shed: invalid config")

// Validate reports the first invalid field, wrapping ErrInvalidConfig, or
// nil.
func (c Config) Validate() error {
	for p := policies.Priority(0); p < policies.NumPriorities; p++ {
		t := c.Threshold[p]
		if !(t > 0 && t <= 1) || math.IsNaN(t) {
			return fmt.Errorf("%w: Threshold[%v] %v: must be in (0, 1]", ErrInvalidConfig, p, t)
		}
		if p > 0 && t > c.Threshold[p-1] {
			return fmt.Errorf("%w: Threshold[%v] %v: must not exceed Threshold[%v] %v (shedding is bottom-up)",
				ErrInvalidConfig, p, t, p-1, c.Threshold[p-1])
		}
	}
	if c.RetryAfter <= 0 {
		return fmt.Errorf("%w: RetryAfter %v: must be positive", ErrInvalidConfig, c.RetryAfter)
	}
	if c.Status != 503 && c.Status != 429 {
		return fmt.Errorf("%w: Status %d: must be 503 or 429", ErrInvalidConfig, c.Status)
	}
	return nil
}

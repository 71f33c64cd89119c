package health

import (
	"errors"
	"fmt"
	"time"
)

// Config holds a probe's parameters, named after the Kubernetes Probe
// fields but typed as time.Duration where Kubernetes counts seconds.
type Config struct {
	// InitialDelay is the time from the container's start to its first
	// probe (initialDelaySeconds). Default 0. Must be >= 0.
	InitialDelay time.Duration
	// Period is the time between the starts of two probes
	// (periodSeconds). Default 10 s. Must be > 0.
	Period time.Duration
	// Timeout is the probe duration at which it counts as failed
	// (timeoutSeconds): a probe passes only if it took less. Default 1 s.
	// Must be > 0.
	Timeout time.Duration
	// SuccessThreshold is the number of consecutive passing probes that
	// makes a readiness probe Ready (successThreshold). Default 1. Must be
	// >= 1, and 1 for a liveness probe.
	SuccessThreshold int
	// FailureThreshold is the number of consecutive failing probes that
	// makes a readiness probe Unready, or a liveness probe restart the
	// container (failureThreshold). Default 3. Must be >= 1.
	FailureThreshold int
}

// DefaultConfig returns the Kubernetes defaults: no initial delay, a probe
// every 10 s with a 1 s timeout, 1 success to pass, 3 failures to fail.
func DefaultConfig() Config {
	return Config{
		Period:           10 * time.Second,
		Timeout:          1 * time.Second,
		SuccessThreshold: 1,
		FailureThreshold: 3,
	}
}

// ErrInvalidConfig is wrapped by every error a constructor returns for a bad
// configuration.
var ErrInvalidConfig = errors.New("health: invalid config")

// Validate reports the first invalid field, wrapping ErrInvalidConfig.
func (c Config) Validate() error {
	switch {
	case c.InitialDelay < 0:
		return fmt.Errorf("%w: InitialDelay %v < 0", ErrInvalidConfig, c.InitialDelay)
	case c.Period <= 0:
		return fmt.Errorf("%w: Period %v <= 0", ErrInvalidConfig, c.Period)
	case c.Timeout <= 0:
		return fmt.Errorf("%w: Timeout %v <= 0", ErrInvalidConfig, c.Timeout)
	case c.SuccessThreshold < 1:
		return fmt.Errorf("%w: SuccessThreshold %d < 1", ErrInvalidConfig, c.SuccessThreshold)
	case c.FailureThreshold < 1:
		return fmt.Errorf("%w: FailureThreshold %d < 1", ErrInvalidConfig, c.FailureThreshold)
	}
	return nil
}

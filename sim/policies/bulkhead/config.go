package bulkhead

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// NoDeadline is the deadline of a caller that has none.
const NoDeadline = time.Duration(math.MaxInt64)

// ErrInvalidConfig is wrapped by every error a constructor returns for a bad
// configuration.
var ErrInvalidConfig = errors.New("bulkhead: invalid config")

// maxSlots bounds slot and queue sizes: 1<<24.
const maxSlots = 1 << 24

// SemaphoreConfig configures a Semaphore. Field names follow Resilience4j's
// BulkheadConfig.
type SemaphoreConfig struct {
	// MaxConcurrentCalls is the number of slots. Default 20 (200 req/s x
	// 50 ms x 2, the sizing of «Устойчивость: circuit breaker, retry,
	// bulkhead, backpressure, деградация», section 5). Must be in [1, 1<<24].
	MaxConcurrentCalls int
	// MaxWaitDuration bounds how long a caller waits for a slot; 0 means
	// fail at once when every slot is taken. Default 0 (Resilience4j's; the
	// resilience article, section 5, gives no number). Must be >= 0.
	MaxWaitDuration time.Duration
}

// DefaultSemaphoreConfig returns 20 slots and no waiting.
func DefaultSemaphoreConfig() SemaphoreConfig {
	return SemaphoreConfig{MaxConcurrentCalls: 20}
}

// Validate reports the first invalid field, wrapping ErrInvalidConfig.
func (c SemaphoreConfig) Validate() error {
	switch {
	case c.MaxConcurrentCalls < 1 || c.MaxConcurrentCalls > maxSlots:
		return fmt.Errorf("%w: MaxConcurrentCalls %d not in [1, %d]", ErrInvalidConfig, c.MaxConcurrentCalls, maxSlots)
	case c.MaxWaitDuration < 0:
		return fmt.Errorf("%w: MaxWaitDuration %v < 0", ErrInvalidConfig, c.MaxWaitDuration)
	}
	return nil
}

// PoolConfig configures a Pool. Field names follow Resilience4j's
// ThreadPoolBulkheadConfig (Hystrix: coreSize, maxQueueSize).
type PoolConfig struct {
	// MaxThreadPoolSize is the number of workers. Default 20. Must be in
	// [1, 1<<24].
	MaxThreadPoolSize int
	// QueueCapacity bounds the number of calls waiting for a worker; 0
	// means no queue (Hystrix's SynchronousQueue). Default 50 (the
	// max_pending_requests of the resilience article's Envoy example,
	// section 8). Must be in
	// [0, 1<<24].
	QueueCapacity int
}

// DefaultPoolConfig returns 20 workers and a queue of 50.
func DefaultPoolConfig() PoolConfig {
	return PoolConfig{MaxThreadPoolSize: 20, QueueCapacity: 50}
}

// Validate reports the first invalid field, wrapping ErrInvalidConfig.
func (c PoolConfig) Validate() error {
	switch {
	case c.MaxThreadPoolSize < 1 || c.MaxThreadPoolSize > maxSlots:
		return fmt.Errorf("%w: MaxThreadPoolSize %d not in [1, %d]", ErrInvalidConfig, c.MaxThreadPoolSize, maxSlots)
	case c.QueueCapacity < 0 || c.QueueCapacity > maxSlots:
		return fmt.Errorf("%w: QueueCapacity %d not in [0, %d]", ErrInvalidConfig, c.QueueCapacity, maxSlots)
	}
	return nil
}

// SizeByLittlesLaw returns the number of slots a bulkhead needs by Little's
// law, L = lambda * W, times a safety factor: ceil(ratePerSecond * latency
// in seconds * headroom). The resilience article's example (section 5),
// 200 req/s at 50 ms with a headroom of 2, gives 20. It returns an error for a non-positive or
// non-finite argument, or a result above 1<<24.
func SizeByLittlesLaw(ratePerSecond float64, latency time.Duration, headroom float64) (int, error) {
	if !(ratePerSecond > 0) || math.IsInf(ratePerSecond, 0) || latency <= 0 || !(headroom > 0) || math.IsInf(headroom, 0) {
		return 0, fmt.Errorf("bulkhead.SizeByLittlesLaw(%v, %v, %v): %w: arguments must be positive and finite",
			ratePerSecond, latency, headroom, ErrInvalidConfig)
	}
	// Work in nanoseconds so that 200 * 50 ms is exactly 10, and forgive
	// rounding error below one part in 1e9 before taking the ceiling.
	l := ratePerSecond * float64(latency) / float64(time.Second) * headroom
	n := math.Ceil(l - l*1e-9)
	if n > maxSlots {
		return 0, fmt.Errorf("bulkhead.SizeByLittlesLaw: %w: %v slots is more than %d", ErrInvalidConfig, n, maxSlots)
	}
	return max(int(n), 1), nil
}

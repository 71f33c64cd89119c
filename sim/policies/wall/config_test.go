package wall

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies/breaker"
	"github.com/ressim/ressim/sim/policies/budget"
	"github.com/ressim/ressim/sim/policies/bulkhead"
	"github.com/ressim/ressim/sim/policies/deadline"
	"github.com/ressim/ressim/sim/policies/fallback"
	"github.com/ressim/ressim/sim/policies/retry"
	"github.com/ressim/ressim/sim/policies/shed"
	"github.com/ressim/ressim/sim/policies/timeout"
)

func TestNewRejectsBadConfig(t *testing.T) {
	badRetry := retry.DefaultConfig()
	badRetry.MaxAttempts = 0
	tests := []struct {
		name string
		cfg  Config
		is   error
	}{
		{"shed without capacity", Config{Shed: shedConfig()}, ErrInvalidConfig},
		{"budget without retry", Config{Budget: budgetConfig(10, 0.1)}, ErrInvalidConfig},
		{"unknown class", Config{Class: deadline.Class(9)}, ErrInvalidConfig},
		{"two bulkheads", Config{Bulkhead: oneSlot(0), BulkheadPool: &bulkhead.PoolConfig{MaxThreadPoolSize: 1}}, ErrInvalidConfig},
		{"retry concurrency without retry", Config{RetryConcurrency: &budget.ConcurrencyConfig{BudgetPercent: 20}}, ErrInvalidConfig},
		{"unknown placement", Config{Placement: Placement(7)}, ErrInvalidConfig},
		{"bad pool", Config{BulkheadPool: &bulkhead.PoolConfig{}}, bulkhead.ErrInvalidConfig},
		{"bad retry concurrency", Config{Retry: noBackoff(2), RetryConcurrency: &budget.ConcurrencyConfig{}}, budget.ErrInvalidConfig},
		{"bad shed", Config{Shed: &shed.Config{}, ShedCapacity: 1}, nil},
		{"bad bulkhead", Config{Bulkhead: &bulkhead.SemaphoreConfig{}}, bulkhead.ErrInvalidConfig},
		{"bad breaker", Config{Breaker: &breaker.Config{}}, breaker.ErrInvalidConfig},
		{"bad retry", Config{Retry: &badRetry}, retry.ErrInvalidConfig},
		{"bad budget", Config{Retry: noBackoff(2), Budget: &budget.Config{}}, budget.ErrInvalidConfig},
		{"bad timeout", Config{Timeout: &timeout.Config{}}, timeout.ErrInvalidConfig},
		{"bad deadline", Config{Deadline: &deadline.Config{Reserve: -1}}, deadline.ErrInvalidConfig},
		{"bad fallback", Config{Fallback: &Fallback{Serve: func(context.Context, fallback.Level, error) error { return nil }}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := New(tt.cfg)
			if err == nil || c != nil {
				t.Fatalf("New = %v, %v; want an error", c, err)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Fatalf("error %v does not wrap %v", err, tt.is)
			}
		})
	}
}

func TestNewCopiesTimeoutIntoRetry(t *testing.T) {
	c, err := New(Config{Retry: noBackoff(3), Timeout: timeoutConfig(250 * time.Millisecond)})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.retry.Config().AttemptTimeout; got != 250*time.Millisecond {
		t.Fatalf("retry AttemptTimeout %v, want the timeout's 250ms", got)
	}
	if _, ok := c.Clock().(*MonotonicClock); !ok {
		t.Fatalf("default clock %T, want *MonotonicClock", c.Clock())
	}
}

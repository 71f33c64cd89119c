package wall

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/breaker"
	"github.com/ressim/ressim/sim/policies/bulkhead"
	"github.com/ressim/ressim/sim/policies/limit"
	"github.com/ressim/ressim/sim/policies/retry"
)

// benchCaller has every policy of the hot path except the per-attempt
// timeout (whose context.WithDeadline allocates in package context): load
// shedding, bulkhead, breaker, retry and budget, on the monotonic clock.
func benchCaller(b *testing.B, withTimeout bool) *Caller {
	bc := breaker.DefaultConfig()
	rc := retry.DefaultConfig()
	cfg := Config{
		Rand:         rand.New(rand.NewPCG(1, 2)),
		Shed:         shedConfig(),
		ShedCapacity: 1 << 20,
		Bulkhead:     &bulkhead.SemaphoreConfig{MaxConcurrentCalls: 1 << 20},
		Breaker:      &bc,
		Retry:        &rc,
		Budget:       budgetConfig(100, 0.1),
	}
	if withTimeout {
		cfg.Timeout = timeoutConfig(1 << 40)
	}
	c, err := New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

func succeed(context.Context) error { return nil }

// BenchmarkDo measures the overhead of the call path around a call that
// succeeds at once: five policies, one mutex section per layer.
func BenchmarkDo(b *testing.B) {
	c := benchCaller(b, false)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if err := c.Do(ctx, succeed); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDoWithTimeout adds the per-attempt timeout: a context.WithDeadline
// and its timer per attempt.
func BenchmarkDoWithTimeout(b *testing.B) {
	c := benchCaller(b, true)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if err := c.Do(ctx, succeed); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDoParallel measures the path under contention for the Caller's
// mutex.
func BenchmarkDoParallel(b *testing.B) {
	c := benchCaller(b, false)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		ctx := context.Background()
		for pb.Next() {
			if err := c.Do(ctx, succeed); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkClassify(b *testing.B) {
	errs := []error{nil, errFail, &RejectedError{StatusCode: 503}, context.DeadlineExceeded}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		Classify(errs[i&3])
		i++
	}
}

// BenchmarkServerAcquire: one admission and release through shedding and
// an AIMD limit, with no contention (the fast path).
func BenchmarkServerAcquire(b *testing.B) {
	aimd := limit.DefaultAIMDConfig()
	s, err := NewServer(ServerConfig{Clock: NewManualClock(0), Limit: &LimitConfig{AIMD: &aimd}, Shed: shedConfig(), QueueCapacity: 8})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		done, err := s.Acquire(ctx, policies.Normal)
		if err != nil {
			b.Fatal(err)
		}
		done(policies.Success)
	}
}

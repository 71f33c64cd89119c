package wall

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/bulkhead"
	"github.com/ressim/ressim/sim/policies/retry"
)

// goDo runs c.Do in a goroutine and returns the channel of its result.
func goDo(ctx context.Context, c *Caller, fn func(context.Context) error) <-chan error {
	ch := make(chan error, 1)
	go func() { ch <- c.Do(ctx, fn) }()
	return ch
}

func TestBackoffWaitsTheDrawnDelay(t *testing.T) {
	rc := retry.DefaultConfig()
	rc.Base, rc.Cap = 100*time.Millisecond, time.Second
	c, clock := newTestCaller(t, Config{Retry: &rc, Rand: rand.New(rand.NewPCG(7, 7))})
	clock.Set(time.Second)

	// The same draws, replayed: the first two retries' delays.
	pol, _ := retry.New(rc)
	r := rand.New(rand.NewPCG(7, 7))
	d1 := pol.Delay(retry.Call{}, r.Float64())
	next := pol.DecideAfter(0, retry.Call{}, policies.Error, 0, 0, 0).Next
	d2 := pol.Delay(next, r.Float64())
	if d1 <= 0 || d2 <= 0 {
		t.Fatalf("test needs positive delays, drew %v and %v", d1, d2)
	}

	attempts := make(chan time.Duration, 3)
	done := goDo(context.Background(), c, func(context.Context) error {
		attempts <- clock.Now()
		if len(attempts) < 3 {
			return errFail
		}
		return nil
	})
	clock.WaitTimers(1)
	if at, _ := clock.NextTimer(); at != time.Second+d1 {
		t.Fatalf("first backoff ends at %v, want %v", at, time.Second+d1)
	}
	clock.Advance(d1 - 1)
	if len(attempts) != 1 {
		t.Fatal("retried before the backoff ended")
	}
	clock.Advance(1)
	clock.WaitTimers(1)
	if at, _ := clock.NextTimer(); at != time.Second+d1+d2 {
		t.Fatalf("second backoff ends at %v, want %v", at, time.Second+d1+d2)
	}
	clock.Advance(d2)
	if err := <-done; err != nil {
		t.Fatalf("Do = %v, want success on the third attempt", err)
	}
	close(attempts)
	want := []time.Duration{time.Second, time.Second + d1, time.Second + d1 + d2}
	i := 0
	for at := range attempts {
		if at != want[i] {
			t.Errorf("attempt %d at %v, want %v", i+1, at, want[i])
		}
		i++
	}
}

func TestRetryAfterIsHonoured(t *testing.T) {
	rc := retry.DefaultConfig()
	rc.Backoff, rc.Base = retry.BackoffConstant, 10*time.Millisecond
	c, clock := newTestCaller(t, Config{Retry: &rc})
	n := 0
	done := goDo(context.Background(), c, func(context.Context) error {
		n++
		if n == 1 {
			return &RejectedError{StatusCode: 429, RetryAfter: 3 * time.Second}
		}
		return nil
	})
	clock.WaitTimers(1)
	if at, _ := clock.NextTimer(); at != 3*time.Second {
		t.Fatalf("retry scheduled at %v, want the Retry-After hint 3s (not the 10ms backoff)", at)
	}
	clock.Advance(3 * time.Second)
	if err := <-done; err != nil || n != 2 {
		t.Fatalf("Do = %v after %d attempts, want success after 2", err, n)
	}
}

func TestCancelDuringBackoff(t *testing.T) {
	rc := retry.DefaultConfig()
	rc.Backoff = retry.BackoffConstant
	c, clock := newTestCaller(t, Config{Retry: &rc})
	ctx, cancel := context.WithCancel(context.Background())
	done := goDo(ctx, c, func(context.Context) error { return errFail })
	clock.WaitTimers(1)
	cancel()
	err := <-done
	if OutcomeOf(err) != policies.Cancelled || !errors.Is(err, context.Canceled) || !errors.Is(err, errFail) {
		t.Fatalf("Do = %v, want Cancelled wrapping context.Canceled and the attempt's error", err)
	}
	if clock.Timers() != 0 {
		t.Fatalf("%d timers left armed", clock.Timers())
	}
}

// holdSlot starts a call that holds the bulkhead's only slot until release
// is closed.
func holdSlot(t *testing.T, c *Caller) (release chan struct{}, done <-chan error) {
	started := make(chan struct{})
	release = make(chan struct{})
	done = goDo(context.Background(), c, func(context.Context) error {
		close(started)
		<-release
		return nil
	})
	<-started
	return release, done
}

func oneSlot(wait time.Duration) *bulkhead.SemaphoreConfig {
	return &bulkhead.SemaphoreConfig{MaxConcurrentCalls: 1, MaxWaitDuration: wait}
}

func TestBulkheadHandsSlotToWaiter(t *testing.T) {
	c, clock := newTestCaller(t, Config{Bulkhead: oneSlot(50 * time.Millisecond)})
	release, first := holdSlot(t, c)
	ran := false
	second := goDo(context.Background(), c, func(context.Context) error { ran = true; return nil })
	clock.WaitTimers(1) // the waiter's bounded wait is armed
	clock.Advance(49 * time.Millisecond)
	close(release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if err := <-second; err != nil || !ran {
		t.Fatalf("waiter: Do = %v, ran %v; want it granted the freed slot", err, ran)
	}
	if clock.Timers() != 0 {
		t.Fatalf("%d timers left armed", clock.Timers())
	}
}

func TestBulkheadWaitRunsOut(t *testing.T) {
	c, clock := newTestCaller(t, Config{Bulkhead: oneSlot(50 * time.Millisecond)})
	release, first := holdSlot(t, c)
	second := goDo(context.Background(), c, func(context.Context) error {
		t.Error("the waiter ran although its wait ran out")
		return nil
	})
	clock.WaitTimers(1)
	clock.Advance(50 * time.Millisecond)
	err := <-second
	if OutcomeOf(err) != policies.BulkheadFull || !errors.Is(err, ErrBulkheadFull) {
		t.Fatalf("waiter: Do = %v, want BulkheadFull", err)
	}
	close(release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	// The slot is free again: a call goes straight through.
	if err := c.Do(context.Background(), func(context.Context) error { return nil }); err != nil {
		t.Fatal(err)
	}
}

func TestBulkheadWaitEndsAtDeadline(t *testing.T) {
	c, clock := newTestCaller(t, Config{Bulkhead: oneSlot(time.Second)})
	release, first := holdSlot(t, c)
	ctx, cancel := clock.WithDeadline(context.Background(), 30*time.Millisecond)
	defer cancel()
	second := goDo(ctx, c, func(context.Context) error { return nil })
	clock.WaitTimers(2) // the context's deadline and the waiter's wait
	if at, _ := clock.NextTimer(); at != 30*time.Millisecond {
		t.Fatalf("first timer at %v, want the deadline 30ms", at)
	}
	clock.Advance(30 * time.Millisecond)
	if err := <-second; OutcomeOf(err) != policies.DeadlineExceeded {
		t.Fatalf("waiter: Do = %v, want DeadlineExceeded", err)
	}
	close(release)
	<-first
}

func TestBulkheadWaiterCancelled(t *testing.T) {
	c, clock := newTestCaller(t, Config{Bulkhead: oneSlot(time.Second)})
	release, first := holdSlot(t, c)
	ctx, cancel := context.WithCancel(context.Background())
	second := goDo(ctx, c, func(context.Context) error { return nil })
	clock.WaitTimers(1)
	cancel()
	if err := <-second; OutcomeOf(err) != policies.Cancelled {
		t.Fatalf("waiter: Do = %v, want Cancelled", err)
	}
	close(release)
	<-first
	if c.InFlight() != 0 {
		t.Fatalf("InFlight %d", c.InFlight())
	}
}

func TestBulkheadWithoutWaitFailsFast(t *testing.T) {
	c, _ := newTestCaller(t, Config{Bulkhead: oneSlot(0)})
	var inner error
	outer := c.Do(context.Background(), func(ctx context.Context) error {
		inner = c.Do(ctx, func(context.Context) error { return nil })
		return nil
	})
	if outer != nil || OutcomeOf(inner) != policies.BulkheadFull {
		t.Fatalf("outer %v, inner %v; want success and BulkheadFull", outer, inner)
	}
}

// TestMonotonicClockPath runs the production clock inside a synctest bubble,
// where time.Now, timers and context deadlines are virtual: three attempts
// that hang until their 50 ms timeout, with 100 ms between them, take
// exactly 350 ms.
func TestMonotonicClockPath(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rc := retry.DefaultConfig()
		rc.Backoff, rc.Base = retry.BackoffConstant, 100*time.Millisecond
		c, err := New(Config{Retry: &rc, Timeout: timeoutConfig(50 * time.Millisecond), Rand: rand.New(rand.NewPCG(1, 1))})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		n := 0
		err = c.Do(context.Background(), func(ctx context.Context) error {
			n++
			<-ctx.Done()
			return ctx.Err()
		})
		if elapsed := time.Since(start); elapsed != 350*time.Millisecond {
			t.Errorf("elapsed %v, want 350ms", elapsed)
		}
		if OutcomeOf(err) != policies.Timeout || n != 3 {
			t.Errorf("Do = %v after %d attempts, want Timeout after 3", err, n)
		}
	})
}

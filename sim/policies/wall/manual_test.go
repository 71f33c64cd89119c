package wall

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"
)

func TestManualClockRunsTimersInOrder(t *testing.T) {
	c := NewManualClock(10 * time.Second)
	var fired []string
	at := func(name string) func() {
		return func() { fired = append(fired, name+"@"+c.Now().String()) }
	}
	c.AfterFunc(3*time.Second, at("c"))
	c.AfterFunc(1*time.Second, at("a"))
	stopB := c.AfterFunc(2*time.Second, at("b"))
	c.AfterFunc(1*time.Second, at("a2")) // same instant as a: after it
	c.AfterFunc(0, at("now"))            // d <= 0: at once
	if got, want := c.Timers(), 4; got != want {
		t.Fatalf("Timers() = %d, want %d", got, want)
	}
	if at, ok := c.NextTimer(); !ok || at != 11*time.Second {
		t.Fatalf("NextTimer() = %v, %v; want 11s, true", at, ok)
	}
	if !stopB() || stopB() {
		t.Fatal("stop should report true once, then false")
	}
	c.Advance(2500 * time.Millisecond)
	if got := c.Now(); got != 12500*time.Millisecond {
		t.Fatalf("Now() = %v after Advance, want 12.5s", got)
	}
	c.Set(13 * time.Second)
	want := []string{"now@10s", "a@11s", "a2@11s", "c@13s"}
	if !slices.Equal(fired, want) {
		t.Fatalf("fired %q, want %q", fired, want)
	}
	if _, ok := c.NextTimer(); ok || c.Timers() != 0 {
		t.Fatal("timers left after all fired")
	}
}

func TestManualClockRefusesToGoBack(t *testing.T) {
	c := NewManualClock(time.Second)
	for name, f := range map[string]func(){
		"Set":     func() { c.Set(0) },
		"Advance": func() { c.Advance(-1) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s into the past did not panic", name)
				}
			}()
			f()
		}()
	}
}

func TestManualClockWithDeadline(t *testing.T) {
	c := NewManualClock(0)
	ctx, cancel := c.WithDeadline(context.Background(), 100*time.Millisecond)
	defer cancel()
	if d, ok := ctx.Deadline(); !ok || c.Instant(d) != 100*time.Millisecond {
		t.Fatalf("Deadline() = %v, %v; want the instant 100ms", d, ok)
	}
	// A child with a later deadline keeps the parent's.
	child, cancelChild := c.WithDeadline(ctx, time.Second)
	defer cancelChild()
	if d, _ := child.Deadline(); c.Instant(d) != 100*time.Millisecond {
		t.Fatalf("child Deadline() = %v, want the parent's", c.Instant(d))
	}
	c.Advance(99 * time.Millisecond)
	if ctx.Err() != nil {
		t.Fatalf("Err() = %v before the deadline", ctx.Err())
	}
	c.Advance(time.Millisecond)
	<-ctx.Done()
	<-child.Done()
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) || !errors.Is(child.Err(), context.DeadlineExceeded) {
		t.Fatalf("Err() = %v, child %v; want context.DeadlineExceeded", ctx.Err(), child.Err())
	}

	// Cancelled before the deadline: Canceled, and the timer is disarmed.
	ctx2, cancel2 := c.WithDeadline(context.Background(), time.Second)
	cancel2()
	if !errors.Is(ctx2.Err(), context.Canceled) || c.Timers() != 0 {
		t.Fatalf("after cancel: Err() = %v, %d timers; want Canceled, 0", ctx2.Err(), c.Timers())
	}
	// A deadline already passed: done at once.
	ctx3, cancel3 := c.WithDeadline(context.Background(), 0)
	defer cancel3()
	if !errors.Is(ctx3.Err(), context.DeadlineExceeded) {
		t.Fatalf("past deadline: Err() = %v", ctx3.Err())
	}
}

func TestManualClockWaitTimers(t *testing.T) {
	c := NewManualClock(0)
	done := make(chan struct{})
	go func() {
		fired := make(chan struct{})
		c.AfterFunc(time.Second, func() { close(fired) })
		<-fired
		close(done)
	}()
	c.WaitTimers(1)
	c.Advance(time.Second)
	<-done
}

func TestMonotonicClock(t *testing.T) {
	c := NewMonotonicClock()
	a := c.Now()
	b := c.Now()
	if a < 0 || b < a {
		t.Fatalf("Now() went %v then %v", a, b)
	}
	if got := c.Instant(c.Time(42 * time.Second)); got != 42*time.Second {
		t.Fatalf("Instant(Time(42s)) = %v", got)
	}
	if !c.Origin().Equal(c.Time(0)) {
		t.Fatal("Origin() != Time(0)")
	}
	ctx, cancel := c.WithDeadline(context.Background(), time.Hour)
	defer cancel()
	if d, ok := ctx.Deadline(); !ok || c.Instant(d) != time.Hour {
		t.Fatalf("WithDeadline: Deadline() = %v, %v", d, ok)
	}
	fired := make(chan struct{})
	c.AfterFunc(0, func() { close(fired) })
	<-fired
	if stop := c.AfterFunc(time.Hour, func() {}); !stop() {
		t.Fatal("stop of a pending timer reported false")
	}
}

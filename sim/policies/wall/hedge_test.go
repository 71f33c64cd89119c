package wall

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/hedge"
)

// hedgeCopy is one copy of a scripted call: its context, and the channel
// the test answers it on.
type hedgeCopy struct {
	ctx    context.Context
	answer chan error
}

// scripted returns a fn whose copies report on started and wait for the
// test's answer or their context, and a counter of the copies that have
// returned. Nothing sleeps: the test drives everything through channels and
// the ManualClock.
func scripted() (fn func(context.Context) error, started chan hedgeCopy, returned *atomic.Int32) {
	started = make(chan hedgeCopy, hedge.MaxMaxAttempts)
	returned = new(atomic.Int32)
	fn = func(ctx context.Context) error {
		defer returned.Add(1)
		c := hedgeCopy{ctx, make(chan error, 1)}
		started <- c
		select {
		case err := <-c.answer:
			return err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return fn, started, returned
}

func newHedger(t *testing.T, clock *ManualClock, hc hedge.Config, perTry time.Duration) *Hedger {
	t.Helper()
	h, err := NewHedger(HedgeConfig{Hedge: hc, Clock: clock, PerTryTimeout: perTry})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// run starts h.Do in a goroutine and returns the channel of its result.
func run(h *Hedger, ctx context.Context, fn func(context.Context) error) chan error {
	done := make(chan error, 1)
	go func() { done <- h.Do(ctx, fn) }()
	return done
}

// noneStarted fails if a copy has started that the test did not expect.
func noneStarted(t *testing.T, started chan hedgeCopy) {
	t.Helper()
	select {
	case <-started:
		t.Fatal("an unexpected copy started")
	default:
	}
}

// TestHedgerHedgeWins: the first copy hangs, the hedge goes out at the
// delay and answers; the first copy's context is cancelled and Do has
// waited for it to return.
func TestHedgerHedgeWins(t *testing.T) {
	clock := NewManualClock(0)
	h := newHedger(t, clock, hedge.Config{MaxAttempts: 3, Delay: 10 * time.Millisecond, InitialRequests: 1}, 0)
	fn, started, returned := scripted()
	done := run(h, context.Background(), fn)

	first := <-started
	clock.WaitTimers(1)
	noneStarted(t, started)
	clock.Advance(10 * time.Millisecond)
	second := <-started
	second.answer <- nil
	if err := <-done; err != nil {
		t.Fatalf("Do = %v, want nil", err)
	}
	if !errors.Is(first.ctx.Err(), context.Canceled) {
		t.Errorf("the slow copy's context: %v, want cancelled", first.ctx.Err())
	}
	if got := returned.Load(); got != 2 {
		t.Errorf("%d copies returned before Do did, want 2", got)
	}
	if n := clock.Timers(); n != 0 {
		t.Errorf("%d timers left armed", n)
	}
	noneStarted(t, started)
}

// TestHedgerFatal: with delay 0 all copies start at once; a fatal error
// from one ends the call and cancels the others.
func TestHedgerFatal(t *testing.T) {
	clock := NewManualClock(0)
	h := newHedger(t, clock, hedge.Config{MaxAttempts: 3, InitialRequests: 1}, 0)
	fn, started, returned := scripted()
	done := run(h, context.Background(), fn)
	cs := []hedgeCopy{<-started, <-started, <-started}
	boom := errors.New("boom")
	cs[1].answer <- boom
	err := <-done
	var e *Error
	if !errors.As(err, &e) || e.Outcome != policies.Error || e.Attempts != 3 || !errors.Is(err, boom) {
		t.Fatalf("Do = %v, want an Error after 3 copies wrapping boom", err)
	}
	for i, c := range cs {
		if i != 1 && c.ctx.Err() == nil {
			t.Errorf("copy %d not cancelled", i)
		}
	}
	if got := returned.Load(); got != 3 {
		t.Errorf("%d copies returned, want 3", got)
	}
}

// TestHedgerNonFatalShortCut: a non-fatal failure sends the next copy at
// once, without the clock moving; when every copy has failed non-fatally
// the call fails with the last failure.
func TestHedgerNonFatalShortCut(t *testing.T) {
	clock := NewManualClock(0)
	h := newHedger(t, clock, hedge.Config{
		MaxAttempts: 2, Delay: time.Second, InitialRequests: 1,
		NonFatal: hedge.NewOutcomeSet(policies.Rejected),
	}, 0)
	fn, started, _ := scripted()
	done := run(h, context.Background(), fn)
	(<-started).answer <- &RejectedError{StatusCode: 503}
	second := <-started // no clock move needed
	second.answer <- &RejectedError{StatusCode: 429}
	err := <-done
	var rej *RejectedError
	if OutcomeOf(err) != policies.Rejected || !errors.As(err, &rej) || rej.StatusCode != 429 {
		t.Fatalf("Do = %v, want rejected with the last copy's 429", err)
	}
	if clock.Now() != 0 {
		t.Errorf("clock moved to %v", clock.Now())
	}
}

// TestHedgerPerTryTimeout: with OnPerTryTimeout the timed-out copy keeps
// running beside the next one and may still win; without it, the copy is
// cancelled at its timeout.
func TestHedgerPerTryTimeout(t *testing.T) {
	t.Run("hedge on per-try timeout", func(t *testing.T) {
		clock := NewManualClock(0)
		h := newHedger(t, clock, hedge.Config{MaxAttempts: 2, Delay: hedge.Never, InitialRequests: 1, OnPerTryTimeout: true}, 50*time.Millisecond)
		fn, started, _ := scripted()
		done := run(h, context.Background(), fn)
		first := <-started
		clock.WaitTimers(1)
		clock.Advance(50 * time.Millisecond)
		second := <-started
		if first.ctx.Err() != nil {
			t.Fatal("the timed-out copy was cancelled")
		}
		first.answer <- nil // the slow one answers after all
		if err := <-done; err != nil {
			t.Fatalf("Do = %v", err)
		}
		if second.ctx.Err() == nil {
			t.Error("the loser was not cancelled")
		}
	})
	t.Run("per-try timeout cancels", func(t *testing.T) {
		clock := NewManualClock(0)
		h := newHedger(t, clock, hedge.Config{
			MaxAttempts: 2, Delay: hedge.Never, InitialRequests: 1,
			NonFatal: hedge.NewOutcomeSet(policies.Timeout),
		}, 50*time.Millisecond)
		fn, started, _ := scripted()
		done := run(h, context.Background(), fn)
		first := <-started
		clock.WaitTimers(1)
		clock.Advance(50 * time.Millisecond)
		second := <-started
		<-first.ctx.Done() // cancelled at its timeout
		second.answer <- nil
		if err := <-done; err != nil {
			t.Fatalf("Do = %v", err)
		}
	})
}

// TestHedgerCallerCancels: the caller's cancellation ends the call with
// Cancelled, and every copy has returned.
func TestHedgerCallerCancels(t *testing.T) {
	clock := NewManualClock(0)
	h := newHedger(t, clock, hedge.Config{MaxAttempts: 2, InitialRequests: 1}, 0)
	fn, started, returned := scripted()
	ctx, cancel := context.WithCancel(context.Background())
	done := run(h, ctx, fn)
	<-started
	<-started
	cancel()
	if err := <-done; OutcomeOf(err) != policies.Cancelled {
		t.Fatalf("Do = %v, want cancelled", err)
	}
	if returned.Load() != 2 {
		t.Errorf("%d copies returned, want 2", returned.Load())
	}
}

// TestHedgerBudget: a budget without tokens refuses the hedge: the call
// keeps its one copy, and a non-fatal failure then ends it with
// ErrBudgetExhausted.
func TestHedgerBudget(t *testing.T) {
	clock := NewManualClock(0)
	h, err := NewHedger(HedgeConfig{
		Hedge: hedge.Config{MaxAttempts: 2, InitialRequests: 1, NonFatal: hedge.NewOutcomeSet(policies.Error)},
		Clock: clock, Budget: budgetConfig(1, 0.1),
	})
	if err != nil {
		t.Fatal(err)
	}
	fn, started, _ := scripted()
	// The first call's hedge takes the only token; its first copy wins.
	done := run(h, context.Background(), fn)
	a, b := <-started, <-started
	a.answer <- nil
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	<-b.ctx.Done()
	// The second call gets no hedge (0.1 token): one copy, which fails.
	done = run(h, context.Background(), fn)
	(<-started).answer <- errors.New("reset")
	err = <-done
	if !errors.Is(err, ErrBudgetExhausted) {
		t.Fatalf("Do = %v, want the budget named", err)
	}
	noneStarted(t, started)
}

func TestNewHedgerInvalid(t *testing.T) {
	if _, err := NewHedger(HedgeConfig{}); !errors.Is(err, hedge.ErrInvalidConfig) {
		t.Errorf("zero hedge config: %v", err)
	}
	if _, err := NewHedger(HedgeConfig{Hedge: hedge.DefaultConfig(), PerTryTimeout: -1}); !errors.Is(err, ErrInvalidConfig) {
		t.Errorf("negative per-try timeout: %v", err)
	}
}

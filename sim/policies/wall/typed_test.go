package wall

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/breaker"
	"github.com/ressim/ressim/sim/policies/budget"
	"github.com/ressim/ressim/sim/policies/bulkhead"
	"github.com/ressim/ressim/sim/policies/fallback"
	"github.com/ressim/ressim/sim/policies/retry"
)

func TestTypedDo(t *testing.T) {
	c, _ := newTestCaller(t, Config{Retry: noBackoff(3)})
	n := 0
	v, err := Do(context.Background(), c, func(context.Context) (int, error) {
		n++
		if n < 3 {
			return -1, errFail // a value returned with an error is dropped
		}
		return 42, nil
	})
	if v != 42 || err != nil {
		t.Fatalf("Do = %v, %v; want 42, nil", v, err)
	}
	s, err := Do(context.Background(), c, func(context.Context) (string, error) { return "partial", errFail })
	if s != "" || !errors.Is(err, errFail) {
		t.Fatalf("Do = %q, %v; want the zero value and the attempt's error", s, err)
	}
}

func TestDoFallbackWithoutFeature(t *testing.T) {
	c, _ := newTestCaller(t, Config{})
	fb := func(_ context.Context, l fallback.Level, cause error) (string, error) {
		if !errors.Is(cause, errFail) {
			t.Errorf("fallback cause %v, want the main path's error", cause)
		}
		return "generic " + l.String(), nil
	}
	v, l, err := DoFallback(context.Background(), c, func(context.Context) (string, error) { return "", errFail }, fb)
	if v != "generic generic" || l != fallback.Generic || err != nil {
		t.Fatalf("DoFallback = %q, %v, %v", v, l, err)
	}
	v, l, err = DoFallback(context.Background(), c, func(context.Context) (string, error) { return "fresh", nil }, fb)
	if v != "fresh" || l != fallback.Fresh || err != nil {
		t.Fatalf("DoFallback = %q, %v, %v", v, l, err)
	}
	failing := func(context.Context, fallback.Level, error) (string, error) { return "x", errors.New("cache down") }
	v, l, err = DoFallback(context.Background(), c, func(context.Context) (string, error) { return "", errFail }, failing)
	if v != "" || l != fallback.SystemError || !errors.Is(err, errFail) {
		t.Fatalf("DoFallback = %q, %v, %v; want the main error", v, l, err)
	}
}

func TestDoFallbackWalksTheHierarchy(t *testing.T) {
	// The feature has no Serve: only DoFallback's typed fallback answers.
	// Stale is skipped (nothing cached), Generic fails, Empty answers.
	c, _ := newTestCaller(t, Config{Fallback: &Fallback{Feature: fallback.DefaultConfig()}})
	var levels []fallback.Level
	v, l, err := DoFallback(context.Background(), c,
		func(context.Context) ([]string, error) { return nil, errFail },
		func(_ context.Context, l fallback.Level, _ error) ([]string, error) {
			levels = append(levels, l)
			if l == fallback.Empty {
				return []string{}, nil
			}
			return nil, errors.New("no generic answer")
		})
	if v == nil || len(v) != 0 || l != fallback.Empty || err != nil {
		t.Fatalf("DoFallback = %v, %v, %v; want an empty list at level empty", v, l, err)
	}
	if !slices.Equal(levels, []fallback.Level{fallback.Generic, fallback.Empty}) {
		t.Fatalf("levels tried %v", levels)
	}
	// Untyped Do with no Serve: no level answers.
	if l, err := c.DoLevel(context.Background(), func(context.Context) error { return errFail }); err == nil || l != fallback.FeatureError {
		t.Fatalf("DoLevel without Serve = %v, %v", l, err)
	}
}

func TestHooks(t *testing.T) {
	var events []string
	bc := testBreaker()
	bc.SlidingWindowSize, bc.MinimumNumberOfCalls = 1, 1
	c, clock := newTestCaller(t, Config{
		Retry:   noBackoff(2),
		Breaker: bc,
		Hooks: Hooks{
			AttemptStart: func(a AttemptStart) { events = append(events, "start "+strconv.Itoa(a.N)) },
			AttemptEnd: func(a AttemptEnd) {
				events = append(events, "end "+strconv.Itoa(a.N)+" "+a.Outcome.String()+" "+a.Latency.String())
			},
			BreakerTransition: func(tr breaker.Transition) { events = append(events, "breaker "+tr.To.String()) },
			Rejected:          func(r Rejection) { events = append(events, "rejected "+r.Reason.Error()+" "+r.Outcome.String()) },
		},
	})
	s := &script{t: t, clock: clock, atts: []att{{lat: time.Millisecond, err: errFail}, fail}}
	c.Do(context.Background(), s.fn)
	c.Do(context.Background(), s.fn)
	want := []string{
		"start 1", "end 1 error 1ms", "start 2", "end 2 error 0s", "breaker open",
		"rejected circuit open circuit_open",
	}
	if !slices.Equal(events, want) {
		t.Fatalf("events\n%q\nwant\n%q", events, want)
	}
}

func TestPoolBulkhead(t *testing.T) {
	// One worker, a queue of one: the second call waits (until its
	// deadline), the third is refused at once.
	c, clock := newTestCaller(t, Config{BulkheadPool: &bulkhead.PoolConfig{MaxThreadPoolSize: 1, QueueCapacity: 1}})
	release, first := holdSlot(t, c)
	ctx, cancel := clock.WithDeadline(context.Background(), 100*time.Millisecond)
	defer cancel()
	ran := make(chan struct{})
	second := goDo(ctx, c, func(context.Context) error { close(ran); return nil })
	clock.WaitTimers(2) // the context's deadline and the queued call's wait
	err := c.Do(context.Background(), func(context.Context) error { return nil })
	if !errors.Is(err, ErrBulkheadFull) || OutcomeOf(err) != policies.BulkheadFull {
		t.Fatalf("third call: %v, want bulkhead full", err)
	}
	close(release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if err := <-second; err != nil {
		t.Fatalf("queued call: %v", err)
	}
	<-ran

	// A queued call whose deadline passes is dropped with DeadlineExceeded.
	release, first = holdSlot(t, c)
	ctx2, cancel2 := clock.WithDeadline(context.Background(), clock.Now()+50*time.Millisecond)
	defer cancel2()
	late := goDo(ctx2, c, func(context.Context) error { t.Error("expired call ran"); return nil })
	clock.WaitTimers(3)
	clock.Advance(50 * time.Millisecond)
	if err := <-late; OutcomeOf(err) != policies.DeadlineExceeded {
		t.Fatalf("expired queued call: %v, want deadline_exceeded", err)
	}
	close(release)
	<-first
}

func TestConcurrencyRetryBudget(t *testing.T) {
	// At most one retry in flight across all calls (0 %, floor 1): while
	// call A's retry runs, call B's retry is denied; after A ends, C may
	// retry again.
	c, _ := newTestCaller(t, Config{
		Retry:            noBackoff(2),
		RetryConcurrency: &budget.ConcurrencyConfig{BudgetPercent: 0, MinRetryConcurrency: 1},
	})
	inRetry, finish := make(chan struct{}), make(chan struct{})
	n := 0
	a := goDo(context.Background(), c, func(context.Context) error {
		n++
		if n == 1 {
			return errFail
		}
		close(inRetry)
		<-finish
		return nil
	})
	<-inRetry
	err := c.Do(context.Background(), func(context.Context) error { return errFail })
	var e *Error
	if !errors.As(err, &e) || e.Attempts != 1 || e.Reason != retry.ReasonBudget || !errors.Is(err, ErrBudgetExhausted) || !errors.Is(err, errFail) {
		t.Fatalf("B: %v, want 1 attempt denied by the budget", err)
	}
	close(finish)
	if err := <-a; err != nil {
		t.Fatal(err)
	}
	m := 0
	if err := c.Do(context.Background(), func(context.Context) error {
		m++
		if m == 1 {
			return errFail
		}
		return nil
	}); err != nil || m != 2 {
		t.Fatalf("C: %v after %d attempts, want success after 2", err, m)
	}
}

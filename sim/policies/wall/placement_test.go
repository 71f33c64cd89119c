package wall

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/breaker"
	"github.com/ressim/ressim/sim/policies/retry"
)

// TestBreakerPlacementSteps plays the same script of attempts through the
// two placements of the breaker (window of 2 calls, opens at 50 %
// failures, 10 s pause, 3 attempts without backoff). Outside the retry loop
// (the default, the simulator's) the breaker judges calls: a call that
// succeeds on its third attempt is one success, and it takes a whole failed
// call to open it. Inside the loop it judges attempts: the first two failed
// attempts of the very first call open it and end that call.
func TestBreakerPlacementSteps(t *testing.T) {
	s := time.Second
	tests := []struct {
		placement Placement
		steps     []step
		trans     []string
	}{
		{OutsideRetry, []step{
			{at: 0, atts: atts(fail, fail, ok), want: policies.Success, wantN: 3, state: breaker.Closed},
			{at: 1 * s, atts: atts(fail, fail, fail), want: policies.Error, wantN: 3, reason: retry.ReasonExhausted, state: breaker.Open},
			{at: 2 * s, want: policies.CircuitOpen, wantN: 0, reason: anyReason, state: breaker.Open},
			// After the pause one probe call runs, retries and all.
			{at: 11 * s, atts: atts(fail, ok), want: policies.Success, wantN: 2, state: breaker.Closed},
		}, []string{"1s closed->open", "11s open->half_open", "11s half_open->closed"}},
		{InsideRetry, []step{
			{at: 0, atts: atts(fail, fail), want: policies.CircuitOpen, wantN: 2, reason: retry.ReasonNotRetryable, state: breaker.Open},
			{at: 1 * s, want: policies.CircuitOpen, wantN: 0, reason: anyReason, state: breaker.Open},
			// After the pause the probe is one attempt: it fails and the
			// retry is refused by the re-opened breaker.
			{at: 10 * s, atts: atts(fail), want: policies.CircuitOpen, wantN: 1, reason: retry.ReasonNotRetryable, state: breaker.Open},
		}, []string{"0s closed->open", "10s open->half_open", "10s half_open->open"}},
	}
	for _, tt := range tests {
		t.Run(tt.placement.String(), func(t *testing.T) {
			bc := testBreaker()
			bc.SlidingWindowSize, bc.MinimumNumberOfCalls = 2, 2
			var trans []string
			c, clock := newTestCaller(t, Config{
				Breaker: bc, Placement: tt.placement, Retry: noBackoff(3),
				OnBreakerTransition: func(tr breaker.Transition) {
					trans = append(trans, fmt.Sprintf("%v %v->%v", tr.At, tr.From, tr.To))
				},
			})
			runSteps(t, c, clock, tt.steps)
			if !slices.Equal(trans, tt.trans) {
				t.Errorf("transitions %q, want %q", trans, tt.trans)
			}
		})
	}
}

// TestBreakerOutsideRecordsCallLatency: outside the loop the breaker's
// latency sample is the whole call's, retries included, so two calls of two
// 300 ms attempts (the first failing) are slow calls for a 500 ms threshold
// and open a breaker that trips at 100 % slow calls over 2; inside the loop
// it sees four 300 ms attempts, none slow, half failed, and stays closed
// (it trips only at 100 % failures).
func TestBreakerOutsideRecordsCallLatency(t *testing.T) {
	ms := time.Millisecond
	want := map[Placement]breaker.State{OutsideRetry: breaker.Open, InsideRetry: breaker.Closed}
	for _, p := range []Placement{OutsideRetry, InsideRetry} {
		bc := testBreaker()
		bc.SlidingWindowSize, bc.MinimumNumberOfCalls = 2, 2
		bc.FailureRateThreshold = 100
		bc.SlowCallDurationThreshold, bc.SlowCallRateThreshold = 500*ms, 100
		c, clock := newTestCaller(t, Config{Breaker: bc, Placement: p, Retry: noBackoff(2)})
		for i := range 2 {
			s := &script{t: t, clock: clock, atts: []att{{lat: 300 * ms, err: errFail}, {lat: 300 * ms}}}
			if err := c.Do(context.Background(), s.fn); err != nil {
				t.Fatalf("%v: call %d: %v", p, i, err)
			}
		}
		if st, _ := c.BreakerState(); st != want[p] {
			t.Errorf("%v: breaker %v after two 600 ms calls of two 300 ms attempts, want %v", p, st, want[p])
		}
	}
}

func TestParsePlacement(t *testing.T) {
	for _, p := range []Placement{OutsideRetry, InsideRetry} {
		got, err := ParsePlacement(p.String())
		if err != nil || got != p {
			t.Errorf("ParsePlacement(%q) = %v, %v", p.String(), got, err)
		}
	}
	if _, err := ParsePlacement("around"); err == nil {
		t.Error("ParsePlacement accepted an unknown placement")
	}
}

// TestBreakerOutsideLatencyIncludesBulkheadWait: outside the retry loop the
// call's latency runs from its start, as the simulator's does, so 400 ms
// waiting for a bulkhead slot plus a 200 ms attempt is a 600 ms call, slow
// for a 500 ms threshold (one call in the window, 100 % slow opens it).
func TestBreakerOutsideLatencyIncludesBulkheadWait(t *testing.T) {
	ms := time.Millisecond
	bc := testBreaker()
	bc.SlidingWindowSize, bc.MinimumNumberOfCalls = 1, 1
	bc.FailureRateThreshold = 100
	bc.SlowCallDurationThreshold, bc.SlowCallRateThreshold = 500*ms, 100
	c, clock := newTestCaller(t, Config{Breaker: bc, Bulkhead: oneSlot(time.Second)})
	release, first := holdSlot(t, c)
	second := goDo(context.Background(), c, func(context.Context) error {
		clock.Advance(200 * ms)
		return nil
	})
	clock.WaitTimers(1) // the second call waits for the slot
	clock.Advance(400 * ms)
	close(release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if err := <-second; err != nil {
		t.Fatal(err)
	}
	if st, _ := c.BreakerState(); st != breaker.Open {
		t.Fatalf("breaker %v after a 600 ms call (400 ms of it waiting for the bulkhead), want open", st)
	}
}

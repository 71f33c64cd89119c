package wall_test

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/policies/breaker"
	"github.com/ressim/ressim/sim/policies/fallback"
	"github.com/ressim/ressim/sim/policies/wall"
	"github.com/ressim/ressim/sim/topology"
)

// TestBreakerFallbackServiceDirection checks the loopback service of
// Example_breakerFallbackService against the direction of the simulation of
// experiments/breaker-fallback.toml (see its header): with the breaker, once
// it has opened, the page answers a user at once with the degraded block and
// recommendations is not called; without it, every user's call reaches
// recommendations and the page answers only when the 300 ms timeout fires.
//
// Time is a ManualClock's, so that "at once" and "after 300 ms" are exact:
// a user answered before the test advances the clock was answered in 0 s of
// the service's time. Each run makes 1 + 20 + 10 calls on loopback.
func TestBreakerFallbackServiceDirection(t *testing.T) {
	for _, withBreaker := range []bool{true, false} {
		clock := wall.NewManualClock(0)
		recs := newRecommendations()
		p := newPage(recs, breakerFallbackConfig(clock, withBreaker))

		if got := p.user(); got != "fresh" {
			t.Fatalf("breaker %v: healthy page %q, want fresh", withBreaker, got)
		}
		// The hang: 20 calls wait in recommendations until their timeout.
		recs.hung.Store(true)
		answers := p.users(20)
		for range 20 {
			<-recs.arrived
		}
		clock.Advance(300 * time.Millisecond)
		for range 20 {
			if got := <-answers; got != "generic" {
				t.Fatalf("breaker %v: page during the hang %q, want generic", withBreaker, got)
			}
		}

		// Ten more users while recommendations still hangs.
		before := recs.calls.Load()
		start := clock.Now()
		answers = p.users(10)
		if withBreaker {
			for range 10 {
				if got := <-answers; got != "generic" {
					t.Fatalf("breaker open: page %q, want generic", got)
				}
			}
			if clock.Now() != start {
				t.Fatal("the clock moved: the test did not advance it")
			}
			if n := recs.calls.Load() - before; n != 0 {
				t.Fatalf("breaker open: recommendations got %d calls, want 0", n)
			}
		} else {
			for range 10 {
				<-recs.arrived // all ten are waiting for recommendations...
			}
			select {
			case got := <-answers: // ...and none can be answered before the timeout
				t.Fatalf("no breaker: a user was answered (%q) before the timeout", got)
			default:
			}
			clock.Advance(300 * time.Millisecond)
			for range 10 {
				if got := <-answers; got != "generic" {
					t.Fatalf("no breaker: page %q after the timeout, want generic", got)
				}
			}
		}
		p.close()
		recs.srv.Close()
	}
}

// TestServiceUsesExperimentSettings reads experiments/breaker-fallback.toml
// with the simulator's own loader and checks that the example's Config has
// the same policies on the page -> recommendations call: timeout, no retry,
// the breaker's every field and its placement, a generic fallback.
func TestServiceUsesExperimentSettings(t *testing.T) {
	exp, err := experiment.Load(filepath.Join("..", "..", "..", "experiments", "breaker-fallback.toml"))
	if err != nil {
		t.Fatal(err)
	}
	var call *topology.CallConfig
	for _, svc := range exp.Model.Services {
		for _, st := range svc.Steps {
			for i := range st.Calls {
				if svc.Name == "page" && st.Calls[i].Service == "recommendations" {
					call = &st.Calls[i]
				}
			}
		}
	}
	if call == nil {
		t.Fatal("no page -> recommendations call in the experiment")
	}
	pol := call.Policy
	cfg := breakerFallbackConfig(wall.NewManualClock(0), true)
	// IsFailure is a func (nil in both: the default classification); the
	// other fields compare as values.
	got, want := *cfg.Breaker, breaker.Config{}
	if pol.Guards.Breaker != nil {
		want = *pol.Guards.Breaker
	}
	if got.IsFailure != nil || want.IsFailure != nil {
		t.Fatal("a custom IsFailure cannot be compared")
	}
	if fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", want) {
		t.Errorf("breaker\n%+v\nexperiment's\n%+v", got, want)
	}
	wantPlacement := wall.OutsideRetry
	if pol.Guards.BreakerInsideRetry {
		wantPlacement = wall.InsideRetry
	}
	if cfg.Placement != wantPlacement {
		t.Errorf("placement %v, experiment's %v", cfg.Placement, wantPlacement)
	}
	if cfg.Timeout.Attempt != pol.Timeout {
		t.Errorf("timeout %v, experiment's %v", cfg.Timeout.Attempt, pol.Timeout)
	}
	if cfg.Retry != nil || pol.Retry.MaxAttempts > 1 {
		t.Errorf("retry %v, experiment's max attempts %d: want none in both", cfg.Retry, pol.Retry.MaxAttempts)
	}
	if f := pol.Guards.Fallback; f == nil || f.Level != fallback.Generic || cfg.Fallback == nil {
		t.Errorf("fallback %+v, want generic in both", f)
	}
}

// TestBreakerFallbackSimulationDirection runs the simulator on the same
// experiment, cut to its first 30 s (10 s of the hang), with and without
// the breaker, and checks the direction the loopback test checks: with the
// breaker most calls to recommendations during the hang are short-circuited
// instead of timing out, without it every one of them waits for its
// timeout. The bounds are loose on purpose: at 500 calls/s, 10 s of hang is
// about 5000 calls. The breaker opens at its 20th timeout, but the calls
// already in flight then (500/s x 300 ms, about 150) time out too, and it
// lets 3 probes through every open pause (15 s): a few hundred timeouts
// against thousands without it (measured: 189 against 4785, with 4772
// calls short-circuited; seed 1).
func TestBreakerFallbackSimulationDirection(t *testing.T) {
	exp, err := experiment.Load(filepath.Join("..", "..", "..", "experiments", "breaker-fallback.toml"))
	if err != nil {
		t.Fatal(err)
	}
	run := func(withBreaker bool) topology.CallResult {
		cfg, err := exp.With(map[string]any{"experiment.duration": "30s"})
		if err != nil {
			t.Fatal(err)
		}
		for i := range cfg.Services {
			for j := range cfg.Services[i].Steps {
				calls := cfg.Services[i].Steps[j].Calls
				for k := range calls {
					if !withBreaker { // the simulator's copy of the experiment without its breaker
						calls[k].Policy.Guards.Breaker = nil
					}
				}
			}
		}
		m, err := topology.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		res, err := m.Run()
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range res.Calls {
			if c.Caller == "page" && c.Callee == "recommendations" {
				return c
			}
		}
		t.Fatal("no page -> recommendations call in the result")
		return topology.CallResult{}
	}
	on, off := run(true), run(false)
	t.Logf("breaker on:  %d calls, %d timeouts, %d short-circuited, %d fallbacks", on.Calls, on.Timeouts, on.ShortCircuited, on.Fallbacks)
	t.Logf("breaker off: %d calls, %d timeouts, %d short-circuited, %d fallbacks", off.Calls, off.Timeouts, off.ShortCircuited, off.Fallbacks)
	if off.ShortCircuited != 0 || off.Timeouts < 1000 {
		t.Errorf("without the breaker: %d timeouts, %d short-circuited; want thousands of timeouts, none short-circuited", off.Timeouts, off.ShortCircuited)
	}
	if on.ShortCircuited < 4*on.Timeouts || on.Timeouts*10 > off.Timeouts {
		t.Errorf("with the breaker: %d timeouts, %d short-circuited; want most calls short-circuited and a tenth of the timeouts or fewer", on.Timeouts, on.ShortCircuited)
	}
}

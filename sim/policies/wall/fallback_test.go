package wall

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/fallback"
)

func TestFallbackSteps(t *testing.T) {
	var served []string
	var alerts []fallback.AlertChange
	fc := fallback.DefaultConfig()
	fc.AlertAfter, fc.Window = time.Minute, time.Minute
	serveOK := map[fallback.Level]bool{}
	c, clock := newTestCaller(t, Config{
		Retry: noBackoff(2),
		Fallback: &Fallback{
			Feature: fc,
			Cached: func(context.Context) fallback.Cached {
				return fallback.Cached{Present: true, StoredAt: 0}
			},
			Serve: func(_ context.Context, l fallback.Level, cause error) error {
				served = append(served, fmt.Sprintf("%v(%v)", l, cause != nil && (errors.Is(cause, errFail) || errors.Is(cause, ErrKilled))))
				if serveOK[l] {
					return nil
				}
				return errors.New("fallback failed")
			},
		},
		OnFallbackAlert: func(ch fallback.AlertChange) { alerts = append(alerts, ch) },
	})

	type fstep struct {
		at        time.Duration
		kill      string // "kill", "revive" or ""
		ok        []fallback.Level
		atts      []att
		want      fallback.Level
		wantErr   bool
		wantServe []string
	}
	s := time.Second
	steps := []fstep{
		{at: 0, atts: atts(ok), want: fallback.Fresh},
		// The main path fails twice; Stale fails, Generic answers.
		{at: 1 * s, atts: atts(fail, fail), ok: []fallback.Level{fallback.Generic}, want: fallback.Generic,
			wantServe: []string{"stale(true)", "generic(true)"}},
		// Every fallback fails: a feature error, with the main path's error.
		{at: 2 * s, atts: atts(fail, fail), want: fallback.FeatureError, wantErr: true,
			wantServe: []string{"stale(true)", "generic(true)", "empty(true)"}},
		// Killed: the dependency is not called; the Empty block answers.
		{at: 3 * s, kill: "kill", ok: []fallback.Level{fallback.Empty}, want: fallback.Empty,
			wantServe: []string{"empty(true)"}},
		{at: 61 * s, kill: "revive", atts: atts(ok), want: fallback.Fresh},
	}
	for i, st := range steps {
		clock.Set(st.at)
		switch st.kill {
		case "kill":
			if ch, ok := c.Kill("drill"); !ok || !ch.Killed || ch.At != st.at {
				t.Fatalf("Kill = %+v, %v", ch, ok)
			}
		case "revive":
			if ch, ok := c.Revive("drill over"); !ok || ch.Killed {
				t.Fatalf("Revive = %+v, %v", ch, ok)
			}
		}
		clear(serveOK)
		for _, l := range st.ok {
			serveOK[l] = true
		}
		served = nil
		sc := &script{t: t, clock: clock, atts: st.atts}
		level, err := c.DoLevel(context.Background(), sc.fn)
		if level != st.want || (err != nil) != st.wantErr {
			t.Errorf("step %d: DoLevel = %v, %v; want %v, error %v", i, level, err, st.want, st.wantErr)
		}
		if st.wantErr && OutcomeOf(err) != policies.Error {
			t.Errorf("step %d: error %v, want the main path's Error", i, err)
		}
		if !slices.Equal(served, st.wantServe) {
			t.Errorf("step %d: fallbacks tried %q, want %q", i, served, st.wantServe)
		}
		if sc.n != len(st.atts) {
			t.Errorf("step %d: %d of %d attempts made", i, sc.n, len(st.atts))
		}
	}
	stats, _ := c.FallbackStats()
	want := [fallback.NumLevels]uint64{2, 0, 1, 1, 1, 0}
	if stats.Served != want {
		t.Errorf("served per level %v, want %v", stats.Served, want)
	}
	// Four of five answers in the first minute were not fresh: the window
	// that closes at 61 s raises the alert.
	if len(alerts) != 1 || !alerts[0].To || alerts[0].At != 61*s {
		t.Errorf("alerts %+v, want one raised at 61s", alerts)
	}
}

func TestFallbackDoReturnsNilOnDegradedAnswer(t *testing.T) {
	c, _ := newTestCaller(t, Config{Fallback: &Fallback{
		Feature: fallback.DefaultConfig(),
		Serve:   func(context.Context, fallback.Level, error) error { return nil },
	}})
	if err := c.Do(context.Background(), func(context.Context) error { return errFail }); err != nil {
		t.Fatalf("Do = %v, want nil: the Generic level answered", err)
	}
	level, err := c.DoLevel(context.Background(), func(context.Context) error { return errFail })
	if level != fallback.Generic || err != nil {
		// No cached value: Stale is skipped.
		t.Fatalf("DoLevel = %v, %v; want generic, nil", level, err)
	}
}

func TestWithoutFallback(t *testing.T) {
	c, _ := newTestCaller(t, Config{})
	if l, err := c.DoLevel(context.Background(), func(context.Context) error { return errFail }); l != fallback.SystemError || err == nil {
		t.Fatalf("DoLevel = %v, %v; want system_error and an error", l, err)
	}
	if _, ok := c.Kill("x"); ok {
		t.Error("Kill without a fallback reported ok")
	}
	if _, ok := c.Revive("x"); ok {
		t.Error("Revive without a fallback reported ok")
	}
	if _, ok := c.FallbackStats(); ok {
		t.Error("FallbackStats without a fallback reported ok")
	}
	if _, ok := c.BreakerState(); ok {
		t.Error("BreakerState without a breaker reported ok")
	}
	if _, ok := c.BudgetTokens(); ok {
		t.Error("BudgetTokens without a budget reported ok")
	}
}

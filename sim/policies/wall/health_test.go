package wall

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies/health"
)

// TestHealthProbesFromTheClock: Kubernetes' defaults (every 10 s, 3
// failures to fail, 1 success to pass). The readiness probe runs at once
// (InitialDelay 0) and passes; the database check then fails, and the
// verdict turns Unready only at the third failed probe (30 s), and Ready
// again at the first passing one (40 s). The liveness probe, which checks
// only the process, stays Live throughout.
func TestHealthProbesFromTheClock(t *testing.T) {
	clock := NewManualClock(0)
	dbDown := false
	var trans []string
	h, err := NewHealth(HealthConfig{
		Clock:     clock,
		Readiness: ptr(health.DefaultConfig()),
		ReadinessChecks: []Check{
			{Name: "self", Fn: func(context.Context) error { return nil }},
			{Name: "db", Fn: func(context.Context) error {
				if dbDown {
					return errors.New("connection refused")
				}
				return nil
			}},
		},
		Liveness:       ptr(health.DefaultConfig()),
		LivenessChecks: []Check{{Name: "self", Fn: func(context.Context) error { return nil }}},
		OnTransition: func(tr health.Transition) {
			trans = append(trans, fmt.Sprintf("%v %v %v->%v", tr.At, tr.Kind, tr.From, tr.To))
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	get := func(ready bool) (int, string) {
		rec := httptest.NewRecorder()
		hd := h.LiveHandler()
		if ready {
			hd = h.ReadyHandler()
		}
		hd.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
		return rec.Code, strings.TrimSpace(rec.Body.String())
	}
	s := time.Second
	steps := []struct {
		at       time.Duration
		down     bool // db state from this instant on (before the probe)
		code     int
		body     string
		liveCode int
	}{
		{0, false, 200, "ready", 200},
		{10 * s, true, 200, "ready", 200},
		{20 * s, true, 200, "ready", 200},
		{30 * s, true, 503, "unready: check db failing", 200},
		{40 * s, false, 200, "ready", 200},
	}
	for _, st := range steps {
		dbDown = st.down
		clock.Set(st.at)
		if code, body := get(true); code != st.code || body != st.body {
			t.Errorf("at %v: readiness %d %q, want %d %q", st.at, code, body, st.code, st.body)
		}
		if code, _ := get(false); code != st.liveCode {
			t.Errorf("at %v: liveness %d, want %d", st.at, code, st.liveCode)
		}
	}
	want := []string{"0s readiness unready->ready", "30s readiness ready->unready", "40s readiness unready->ready"}
	if !slices.Equal(trans, want) {
		t.Errorf("transitions %q, want %q", trans, want)
	}
	h.Close()
	if n := clock.Timers(); n != 0 {
		t.Fatalf("%d timers armed after Close", n)
	}
	if s, ok := h.State(health.Readiness); !ok || s != health.Ready {
		t.Fatalf("State = %v, %v", s, ok)
	}
}

// TestHealthCheckTimeout: a check that takes the probe's Timeout (1 s)
// fails, however it ends; three such probes restart the container, which
// LiveHandler reports as 503 restarting.
func TestHealthCheckTimeout(t *testing.T) {
	clock := NewManualClock(0)
	h, err := NewHealth(HealthConfig{
		Clock:    clock,
		Liveness: ptr(health.DefaultConfig()),
		LivenessChecks: []Check{{Name: "loop", Fn: func(ctx context.Context) error {
			clock.Advance(time.Second) // stuck until the timeout
			return ctx.Err()
		}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	clock.Set(25 * time.Second) // probes at 0, 10, 20 s
	rec := httptest.NewRecorder()
	h.LiveHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if rec.Code != 503 || !strings.HasPrefix(rec.Body.String(), "restarting: check loop failing") {
		t.Fatalf("liveness %d %q, want 503 restarting", rec.Code, rec.Body.String())
	}
	rec = httptest.NewRecorder()
	h.ReadyHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if rec.Code != 200 {
		t.Fatalf("no readiness probe: %d, want 200", rec.Code)
	}
}

func TestNewHealthRejectsBadConfig(t *testing.T) {
	ok := func(context.Context) error { return nil }
	for name, cfg := range map[string]HealthConfig{
		"no probe":   {},
		"no checks":  {Readiness: ptr(health.DefaultConfig())},
		"nil fn":     {Readiness: ptr(health.DefaultConfig()), ReadinessChecks: []Check{{Name: "x"}}},
		"dup name":   {Readiness: ptr(health.DefaultConfig()), ReadinessChecks: []Check{{"x", ok}, {"x", ok}}},
		"bad config": {Liveness: &health.Config{}, LivenessChecks: []Check{{"x", ok}}},
	} {
		if _, err := NewHealth(cfg); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func ptr[T any](v T) *T { return &v }

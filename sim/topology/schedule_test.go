package topology

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/engine"
	"github.com/ressim/ressim/sim/policies"
)

// TestSchedulePanicsOnBug: an event scheduled in the past, or without a
// handler, is a bug in the model; the helpers panic at the call with the
// engine's error, which names the handler, instead of dropping the event.
func TestSchedulePanicsOnBug(t *testing.T) {
	cases := []struct {
		name string
		do   func(m *Model)
		want string
	}{
		{"negative delay", func(m *Model) { m.after(-time.Nanosecond, &m.hTimeout, nil) }, "in the past: *topology.timeoutHandler at"},
		{"past instant", func(m *Model) { m.at(-1, &m.hRetry, nil) }, "in the past: *topology.retryHandler at"},
		{"nil handler", func(m *Model) { m.at(0, nil, nil) }, "nil handler"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, err := New(mm10Config(time.Minute))
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				r := recover()
				msg := fmt.Sprint(r)
				if !strings.Contains(msg, tc.want) || !strings.HasPrefix(msg, "engine: ") {
					t.Errorf("panic %v, want a message with %q", r, tc.want)
				}
			}()
			tc.do(m)
			t.Error("no panic")
		})
	}
	m, err := New(mm10Config(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if id := m.after(0, engine.HandlerFunc(func(engine.Time, any) {}), nil); id == 0 {
		t.Error("a valid event got id 0")
	}
}

// TestPendingRetryCancelledOnRelease: a call released while its retry
// waits cancels the retry, whether the engine's Then took it (an
// immediate retry, thenEvent) or it is queued (a retry after a backoff),
// and a call that does not wait keeps nothing pending.
func TestPendingRetryCancelledOnRelease(t *testing.T) {
	for _, tc := range []struct {
		name string
		at   engine.Time
		then bool
	}{
		{"immediate", 0, true},
		{"after a backoff", engine.Time(time.Second), false},
	} {
		m, err := New(mm10Config(time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		c := m.pool.call()
		c.site = m.clients[0].site
		if c.retryEv = m.retryNow(0, tc.at, c); c.retryEv == 0 {
			c.retryEv = m.at(tc.at, &m.hRetry, c)
		}
		if (c.retryEv == thenEvent) != tc.then || m.sim.Pending() != 1 {
			t.Fatalf("%s: retry event %x, %d pending; want Then's: %v, 1 pending", tc.name, c.retryEv, m.sim.Pending(), tc.then)
		}
		m.releaseHeld(0, c, policies.Cancelled)
		if c.retryEv != 0 || m.sim.Pending() != 0 {
			t.Fatalf("%s: after the release, retry event %x and %d pending; want none", tc.name, c.retryEv, m.sim.Pending())
		}
		if m.sim.Step() {
			t.Fatalf("%s: an event fired after the release", tc.name)
		}
	}
}

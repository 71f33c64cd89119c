package topology

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/engine"
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

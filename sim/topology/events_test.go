package topology

import (
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies/limit"
)

// TestEventLogAdd: the log stays in time order when an event arrives
// late (a breaker's half-open, logged at its pause's end), keeps events
// at one instant in the order they came, and counts what it drops once
// full.
func TestEventLogAdd(t *testing.T) {
	steps := []struct {
		at      time.Duration
		subject string
		want    string // subjects in log order after the step
		dropped uint64
	}{
		{10, "a", "a", 0},
		{20, "b", "ab", 0},
		{15, "c", "acb", 0},  // late: moves back past b
		{15, "d", "acdb", 0}, // same instant as c: after it
		{5, "e", "acdb", 1},  // full (cap 4): dropped, even though earlier
	}
	l := EventLog{Cap: 4}
	for i, s := range steps {
		l.add(Event{At: s.at, Subject: s.subject})
		got := ""
		for _, e := range l.Events {
			got += e.Subject
		}
		if got != s.want || l.Dropped != s.dropped {
			t.Errorf("step %d: log %q dropped %d, want %q dropped %d", i, got, l.Dropped, s.want, s.dropped)
		}
	}
}

// TestLogLimitThins: a limit's moves are logged only LimitStep (10 %)
// away from the last logged value, each event's From being that value.
func TestLogLimitThins(t *testing.T) {
	m := &Model{events: EventLog{Cap: 100}}
	s := &service{m: m, cfg: &ServiceConfig{Name: "api"}}
	in := &instance{svc: s}
	moves := [][2]int{{20, 21}, {21, 22}, {22, 23}, {23, 20}, {20, 18}, {18, 18}, {18, 17}, {17, 16}}
	for i, mv := range moves {
		in.logLimit(0, limit.Transition{At: time.Duration(i), From: mv[0], To: mv[1]})
	}
	// 20 (first From) -> 21 no, 22 yes (|2| >= 2); 22 -> 23 no, 20 yes
	// (|2| >= 2.2? no: 2 < 2.2), 18 yes (4); 18 -> 17 no, 16 yes (2 >= 1.8).
	want := [][2]string{{"20", "22"}, {"22", "18"}, {"18", "16"}}
	if len(m.events.Events) != len(want) {
		t.Fatalf("%d events %+v, want %v", len(m.events.Events), m.events.Events, want)
	}
	for i, e := range m.events.Events {
		if e.Kind != EventLimit || e.Subject != "api[0]" || e.From != want[i][0] || e.To != want[i][1] {
			t.Errorf("event %d = %+v, want limit api[0] %s->%s", i, e, want[i][0], want[i][1])
		}
	}
}

// TestEventLogCapValidated: a negative cap is refused; 0 is the default.
func TestEventLogCapValidated(t *testing.T) {
	c := Config{Duration: time.Second, EventLogCap: -1}
	if err := c.validateRun(); err == nil {
		t.Error("a negative event log cap was accepted")
	}
	if got := (&Config{}).eventLogCap(); got != DefaultEventLogCap {
		t.Errorf("default cap %d, want %d", got, DefaultEventLogCap)
	}
}

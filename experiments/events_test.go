package experiments_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/topology"
)

// eventsOf returns the run's logged events of one kind (and subject, if
// not empty), as "from->to" strings, and their instants.
func eventsOf(res *topology.Result, kind topology.EventKind, subject string) (moves []string, at []time.Duration) {
	for _, e := range res.EventLog.Events {
		if e.Kind == kind && (subject == "" || e.Subject == subject) {
			moves = append(moves, e.From+"->"+e.To)
			at = append(at, e.At)
		}
	}
	return moves, at
}

// TestBreakerFallbackTransitions: the event log holds the story the
// file's comment tells, transition by transition: closed, open,
// half-open, open, half-open, closed. The first half-open lasts one
// probe's 300 ms timeout, less than the 1 s interval, so the sampled
// breaker_state series cannot show it; the log must.
func TestBreakerFallbackTransitions(t *testing.T) {
	res := runExp(t, "breaker-fallback.toml", nil)
	const site = "page->recommendations/call"
	moves, at := eventsOf(res, topology.EventBreaker, site)
	want := []string{"closed->open", "open->half_open", "half_open->open", "open->half_open", "half_open->closed"}
	if strings.Join(moves, " ") != strings.Join(want, " ") {
		t.Fatalf("breaker transitions %v, want %v\n%s", moves, want, dumpEvents(res))
	}
	// Where each is due (the file's comment): opens within a second of
	// the hang at 20 s; the 15 s pause ends at ~35 s; the failed probe
	// waits out its 300 ms timeout; the doubled 30 s pause ends at ~65 s,
	// and the recovered callee (20 ms) answers the 3 probes at once.
	windows := [][2]time.Duration{{20 * time.Second, 21 * time.Second}, {35 * time.Second, 36 * time.Second},
		{35 * time.Second, 36 * time.Second}, {65 * time.Second, 66 * time.Second}, {65 * time.Second, 66 * time.Second}}
	for i, w := range windows {
		if at[i] < w[0] || at[i] >= w[1] {
			t.Errorf("transition %d (%s) at %v, want in [%v, %v)", i, moves[i], at[i], w[0], w[1])
		}
	}
	if got := at[1] - at[0]; got != 15*time.Second {
		t.Errorf("first open pause %v, want the configured 15s", got)
	}
	if got := at[3] - at[2]; got != 30*time.Second {
		t.Errorf("second open pause %v, want 15s x 2 = 30s", got)
	}
	if hold := at[2] - at[1]; hold >= time.Second {
		t.Errorf("first half-open lasted %v; the point of the test is one under an interval", hold)
	}
	probes, _ := eventsOf(res, topology.EventProbe, site)
	wantProbes := []string{"half_open->failed", "half_open->passed", "half_open->passed", "half_open->passed"}
	if strings.Join(probes, " ") != strings.Join(wantProbes, " ") {
		t.Errorf("probes %v, want %v", probes, wantProbes)
	}
	if res.EventLog.Dropped != 0 {
		t.Errorf("%d events dropped", res.EventLog.Dropped)
	}
}

// TestPolicyEventsLogged: the other policies' state changes are in the
// log, at the times their files describe.
func TestPolicyEventsLogged(t *testing.T) {
	cases := []struct {
		file  string
		kind  topology.EventKind
		first string        // the first move
		from  time.Duration // it happens in [from, to)
		to    time.Duration
		least int // at least this many events of the kind
	}{
		// api[3] returns 503s from 20 s: 5 in a row eject it.
		{"outlier-ejection.toml", topology.EventEjection, "in->ejected", 20 * time.Second, 21 * time.Second, 2},
		// The probes include the failing dependency: every shop instance
		// goes unready, then ready again.
		{"readiness-trap.toml", topology.EventReadiness, "ready->unready", 20 * time.Second, 30 * time.Second, 6},
		{"adaptive-limit.toml", topology.EventLimit, "", 0, 100 * time.Second, 3},
	}
	for _, c := range cases {
		res := runExp(t, c.file, nil)
		moves, at := eventsOf(res, c.kind, "")
		if len(moves) < c.least {
			t.Errorf("%s: %d %s events, want at least %d\n%s", c.file, len(moves), c.kind, c.least, dumpEvents(res))
			continue
		}
		if c.first != "" && moves[0] != c.first {
			t.Errorf("%s: first %s event %s, want %s", c.file, c.kind, moves[0], c.first)
		}
		if at[0] < c.from || at[0] >= c.to {
			t.Errorf("%s: first %s event at %v, want in [%v, %v)", c.file, c.kind, at[0], c.from, c.to)
		}
	}
}

func dumpEvents(res *topology.Result) string {
	var b strings.Builder
	for _, e := range res.EventLog.Events {
		fmt.Fprintf(&b, "%v %s %s %s->%s %s\n", e.At, e.Kind, e.Subject, e.From, e.To, e.Detail)
	}
	return b.String()
}

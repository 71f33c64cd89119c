package fallback

import (
	"testing"
	"time"
)

// The alert for living on fallback: 1-min windows, degraded when half or
// more answers are not fresh, alert after 5 min of degraded windows.
func TestTrackerSteps(t *testing.T) {
	tr, err := NewTracker(DefaultTrackerConfig())
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		at      time.Duration
		op      string // an answer level, or "check"
		l       Level
		alert   bool
		changed bool
		since   time.Duration // checked when alert
	}{
		{at: 0, op: "rec", l: Fresh},                                     // window [0, 1m)
		{at: 30 * sec, op: "rec", l: Stale},                              // 1 of 2 degraded
		{at: 1 * min, op: "rec", l: Stale},                               // closes [0,1m): 50 %: degraded, run from 0
		{at: 2*min + 1, op: "rec", l: Generic},                           // closes [1m,2m): degraded
		{at: 3 * min, op: "rec", l: Empty},                               // closes [2m,3m)
		{at: 4 * min, op: "rec", l: FeatureError},                        // closes [3m,4m); run 4 min
		{at: 4*min + 59*sec, op: "check"},                                // nothing closes
		{at: 5 * min, op: "check", alert: true, changed: true, since: 0}, // closes [4m,5m): 5 min of degraded windows
		{at: 5*min + 1, op: "rec", l: Fresh, alert: true, since: 0},      // one fresh answer in the window...
		{at: 5*min + 2, op: "rec", l: Fresh, alert: true, since: 0},
		{at: 5*min + 3, op: "rec", l: Stale, alert: true, since: 0}, // 1 of 3 degraded: < 50 %
		{at: 6 * min, op: "check", alert: false, changed: true},     // closes [5m,6m): not degraded: cleared
		{at: 7 * min, op: "rec", l: Stale},                          // [6m,7m) was empty: no change
		// [7m,8m) degraded: a run from 7m; the empty windows after it leave
		// the run standing, so by 12m it has lasted 5 min.
		{at: 30 * min, op: "check", alert: true, changed: true, since: 7 * min},
	}
	for i, s := range steps {
		var c AlertChange
		if s.op == "check" {
			c = tr.Check(s.at)
		} else {
			c = tr.Record(s.at, s.l)
		}
		want := s.alert
		if c.To != want || c.Changed() != s.changed || c.At != s.at {
			t.Errorf("step %d at %v: %+v, want alert %v changed %v", i, s.at, c, want, s.changed)
		}
		if want && c.DegradedSince != s.since {
			t.Errorf("step %d: DegradedSince %v, want %v", i, c.DegradedSince, s.since)
		}
		if a, _ := tr.Alerting(); a != want {
			t.Errorf("step %d: Alerting %v", i, a)
		}
	}
	if tr.NextCheckAt() != 31*min {
		t.Errorf("NextCheckAt %v, want 31m", tr.NextCheckAt())
	}
}

func TestTrackerLongGap(t *testing.T) {
	tr, _ := NewTracker(DefaultTrackerConfig())
	tr.Record(0, Fresh)
	// A gap of a year must not loop per window.
	c := tr.Record(365*24*time.Hour, Stale)
	if c.To {
		t.Error("alert after a fresh window and a long gap")
	}
	if got := tr.NextCheckAt(); got != 365*24*time.Hour+min {
		t.Errorf("NextCheckAt %v", got)
	}
}

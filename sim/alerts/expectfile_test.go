package alerts

import (
	"testing"
	"time"

	"github.com/ressim/ressim/sim/experiment"
)

// TestExpectFromFile is a table of [[expect]] blocks judged on one
// hand-made report: fault f (10 s to 20 s) saw A fire 5 s in and resolve
// 15 s after its end; fault g saw nothing; the baseline saw C fire.
func TestExpectFromFile(t *testing.T) {
	s := time.Second
	r := &Report{
		Faults: []FaultReport{
			{Label: "f", Start: 10 * s, End: 20 * s, Detections: []Detection{
				{Alert: `A{k="v"}`, Fired: true, FiringAfter: 5 * s, Resolved: true, ResolvedAfter: 15 * s}}},
			{Label: "g", Start: 40 * s, End: 50 * s},
		},
		Baseline: []Episode{{Alert: "C", Fired: true, Firing: 30 * s}},
	}
	at := experiment.Pos{Line: 7, Col: 1}
	for _, c := range []struct {
		x    experiment.AlertExpect
		text string
		ok   bool
	}{
		{experiment.AlertExpect{Alert: "A", Fault: "f", FiresWithin: 5 * s}, `x.toml:7: A fires within 5s in "f"`, true},
		{experiment.AlertExpect{Alert: "A", Fault: "f", FiresWithin: 4 * s}, `x.toml:7: A fires within 4s in "f"`, false},
		{experiment.AlertExpect{Alert: "A", FiresWithin: time.Minute}, "x.toml:7: A fires within 1m0s", false}, // not in g
		{experiment.AlertExpect{Alert: "A", Fault: "f", ResolvesWithin: 15 * s}, `x.toml:7: A resolves within 15s in "f"`, true},
		{experiment.AlertExpect{Alert: "A", Fault: "g", NeverFires: true}, `x.toml:7: A never fires in "g"`, true},
		{experiment.AlertExpect{Alert: "A", NeverFires: true}, "x.toml:7: A never fires", false},
		{experiment.AlertExpect{Alert: "A", NeverFires: true, Baseline: true}, "x.toml:7: A never fires in the baseline", true},
		{experiment.AlertExpect{Alert: "C", NeverFires: true, Baseline: true}, "x.toml:7: C never fires in the baseline", false},
		{experiment.AlertExpect{Alert: "*", Fault: "f", NeverFires: true}, `x.toml:7: * never fires in "f"`, false},
		{experiment.AlertExpect{Alert: "*", NeverFires: true, Baseline: true}, "x.toml:7: no false alarms", false},
		{experiment.AlertExpect{Alert: "A", Fault: "h", FiresWithin: s}, `x.toml:7: A fires within 1s in "h"`, false},
	} {
		c.x.Where = at
		e := ExpectFrom("x.toml", c.x)
		if e.Text != c.text {
			t.Errorf("text %q, want %q", e.Text, c.text)
		}
		if got := e.Check(r); got.OK != c.ok {
			t.Errorf("%s: ok %v, want %v (%s)", e.Text, got.OK, c.ok, got.Detail)
		}
	}
	r.Baseline = []Episode{}
	if e := ExpectFrom("x.toml", experiment.AlertExpect{Alert: "*", NeverFires: true, Baseline: true}); !e.Check(r).OK {
		t.Error("an empty baseline has no false alarm")
	}
}

func TestUnknownAlert(t *testing.T) {
	names := []string{"A", "B"}
	for _, c := range []struct {
		alert string
		ok    bool
	}{{"A", true}, {`B{severity="page"}`, true}, {"*", true}, {"C", false}, {"A2", false}} {
		if got := UnknownAlert(c.alert, names) == ""; got != c.ok {
			t.Errorf("%s: known %v, want %v", c.alert, got, c.ok)
		}
	}
}

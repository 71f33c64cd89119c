package figures

import (
	"fmt"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/topology"
)

// TestBreakerBandsFromTheLog: a breaker's bands are its logged states,
// closed before the first transition and the last state to the end of the
// run; a log that dropped events draws none (the caller falls back to
// the samples).
func TestBreakerBandsFromTheLog(t *testing.T) {
	res := &topology.Result{Duration: 10 * time.Second, EventLog: topology.EventLog{Events: []topology.Event{
		{At: 2 * time.Second, Kind: topology.EventBreaker, Subject: "a->b/call", From: "closed", To: "open"},
		{At: 3 * time.Second, Kind: topology.EventBreaker, Subject: "other", From: "closed", To: "open"},
		{At: 4 * time.Second, Kind: topology.EventBreaker, Subject: "a->b/call", From: "open", To: "half_open"},
	}}}
	bands, ok := breakerBands(res, "a->b/call")
	if got, want := fmt.Sprint(bands), "[{0 2 closed} {2 4 open} {4 10 half-open}]"; !ok || got != want {
		t.Errorf("bands %s (ok %v), want %s", got, ok, want)
	}
	res.EventLog.Dropped = 1
	if _, ok := breakerBands(res, "a->b/call"); ok {
		t.Error("bands drawn from a log that dropped events")
	}
}

// TestActionMarks: each timed action is a mark at its instant, labelled
// with its label; the actions at one instant share a mark, each label
// once.
func TestActionMarks(t *testing.T) {
	res := &topology.Result{Actions: []topology.ActionResult{
		{At: 120 * time.Second, Label: "cut"},
		{At: 120 * time.Second, Label: "cut"},
		{At: 120 * time.Second, Label: "more workers"},
		{At: 150 * time.Second, Label: "kill_switch recommendations"},
	}}
	got := fmt.Sprint(ActionMarks(res))
	if want := "[{120 cut; more workers} {150 kill_switch recommendations}]"; got != want {
		t.Errorf("ActionMarks = %s, want %s", got, want)
	}
	if m := ActionMarks(&topology.Result{}); m != nil {
		t.Errorf("no actions: marks %v, want none", m)
	}
}

package runner

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
)

// TestHerdEstimate: issue 23's jitter herd, 100 clients that each send a
// 50 ms burst at 1,000 requests/s and retry 5 times, was estimated at
// 750 M events a run (each burst's peak held for the whole five minutes) while
// a run fires a few thousand, so a 20-replication comparison of a
// legitimate experiment was refused. The estimate now integrates each
// client's schedule: it stays above the run's events and far under the
// default budget for 20 replications.
func TestHerdEstimate(t *testing.T) {
	var b strings.Builder
	b.WriteString("schema = 1\n[experiment]\nname = \"herd\"\nduration = \"300s\"\nseed = 1\n")
	b.WriteString("[[service]]\nname = \"api\"\nworkers = 8\nqueue_capacity = 100\nservice_time = { dist = \"exponential\", mean = \"5ms\" }\n")
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&b, "[[client]]\nname = \"c%d\"\ntarget = \"api\"\ntimeout = \"50ms\"\n"+
			"schedule = [{ at = \"0s\", rate = 0 }, { at = \"1s\", rate = 1000 }, { at = \"1050ms\", rate = 0 }]\n"+
			"retry = { attempts = 5, backoff = \"full_jitter\", base = \"10ms\", cap = \"1s\" }\n", i)
	}
	exp, err := experiment.Parse("herd.toml", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	est := Estimate(exp.Model).Events
	res, err := NewMeter(context.Background(), Budget{}).Run(exp.Model, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if est < float64(res.Events) {
		t.Errorf("estimated %.0f events, the run fired %d", est, res.Events)
	}
	if err := DefaultBudget.Check([]PlannedRun{{Model: exp.Model, Times: 20}}); err != nil {
		t.Errorf("20 replications refused: %v (estimate %.3g a run, fired %d)", err, est, res.Events)
	}
	t.Logf("estimated %.0f, fired %d (%.1fx)", est, res.Events, est/float64(res.Events))
}

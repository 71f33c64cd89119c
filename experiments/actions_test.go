package experiments_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/metrics"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/topology"
)

// retryStormVariant returns the model of one of the retry storm's variants.
func retryStormVariant(t *testing.T, name string) topology.Config {
	t.Helper()
	exp, err := experiment.Load("metastable-retry-storm.toml")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range exp.Variants {
		if v.Name == name {
			return v.Model
		}
	}
	t.Fatalf("no variant %q", name)
	return topology.Config{}
}

// TestRetryStormTimedActionEndsLockIn is issue 28's first Done item: in
// the retry storm, a timed action that cuts retries to 1 attempt at
// 120 s ends the lock-in (the verdict says recovered), where the same
// run without the action stays locked in; and the run with the action
// replays to the same bytes.
func TestRetryStormTimedActionEndsLockIn(t *testing.T) {
	if r := runExp(t, "metastable-retry-storm.toml", nil).Faults[0].Recovery; r.Verdict != topology.VerdictLockedIn {
		t.Fatalf("without the action: verdict %q, want locked_in", r.Verdict)
	}
	cfg := retryStormVariant(t, "cut-retries-at-120s")
	if len(cfg.Actions) != 1 || cfg.Actions[0].At != 120*time.Second || cfg.Actions[0].Int != 1 {
		t.Fatalf("actions %+v, want retries cut to 1 at 120 s", cfg.Actions)
	}
	var sums, series [2][]byte
	for i := range sums {
		res := runModel(t, cfg)
		r := res.Faults[0].Recovery
		if r.Verdict != topology.VerdictRecovered {
			t.Fatalf("with retries cut at 120 s: verdict %q (%s), want recovered", r.Verdict, r.Reason)
		}
		// Recovered after the action, not before it: the fault ended at
		// 65 s, the action came at 120 s.
		if back := 65*time.Second + r.Time; back < 120*time.Second || back > 150*time.Second {
			t.Errorf("goodput back at %v, want shortly after the action at 120 s", back)
		}
		if len(res.Actions) != 1 || res.Actions[0].From != "3" || res.Actions[0].To != "1" {
			t.Errorf("actions that ran: %+v, want one, 3 -> 1", res.Actions)
		}
		var err error
		if sums[i], err = run.SummaryJSON(res); err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := metrics.WriteCSV(&b, res.Series); err != nil {
			t.Fatal(err)
		}
		series[i] = b.Bytes()
	}
	if !bytes.Equal(sums[0], sums[1]) || !bytes.Equal(series[0], series[1]) {
		t.Error("two runs of the file with its timed action differ (summary.json or timeseries.csv)")
	}
	if !bytes.Contains(sums[0], []byte(`"actions"`)) {
		t.Error("summary.json lists no actions")
	}
}

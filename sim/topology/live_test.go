package topology

import (
	"reflect"
	"testing"
	"time"
)

// TestLiveChangesNothing: a run looked at with Live after every interval
// ends with the same result as one that is not; and each Live holds the
// series so far, the faults undetermined, and the names of every client
// and service.
func TestLiveChangesNothing(t *testing.T) {
	cfg := noOpFault(40, 7)
	want := mustRun(t, cfg)

	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	looks := 0
	m.OnProgress(func(now, end time.Duration) {
		live := m.Live()
		looks++
		if n := live.Series.Len(); n != looks {
			t.Fatalf("at %v: %d intervals in the live series, want %d", now, n, looks)
		}
		if live.Duration != end || len(live.Clients) != 1 || live.Clients[0].Name != "c" ||
			len(live.Services) != 1 || live.Services[0].Name != "s" {
			t.Fatalf("at %v: live result %+v", now, live)
		}
		if v := live.Faults[0].Recovery.Verdict; v != VerdictUndetermined {
			t.Fatalf("at %v: verdict %q while running", now, v)
		}
		if now > cfg.Warmup+time.Second && live.Services[0].Amplification != 1 {
			t.Fatalf("at %v: amplification %v without retries", now, live.Services[0].Amplification)
		}
	})
	got, err := m.Run()
	if err != nil {
		t.Fatal(err)
	}
	if looks != 90 {
		t.Errorf("looked %d times, want 90", looks)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the result changed when the run was looked at")
	}
}

package lint

import (
	"bytes"
	"context"
	"testing"

	"github.com/ressim/ressim/sim/run/runner"
)

// TestSimulateRetryAmplification: --simulate shows the 27x finding with
// its measured amplification, and the fixing variant recovers from every
// scenario.
//
// Oracle: during the instance crash the database (one instance) refuses
// every attempt at once, every layer retries (3 attempts, 1-10 ms
// jittered backoff, far inside the 5 s timeouts), so each user request
// sent during the 5 s crash makes 3 x 3 x 3 = 27 database attempts; only
// the requests whose retry tree straddles the crash's start or end (a few
// tens of ms of the 5 s at 100 requests/s) make fewer, hence >= 25. With
// retries at the edge only it is 3 x 1 x 1 = 3 (>= 2.8 for the same edge).
func TestSimulateRetryAmplification(t *testing.T) {
	r := goldenReports(t)["retry-amplification-simulate"]
	var rs007 *Finding
	for i, f := range r.Findings {
		if f.Rule == "RS007" && f.Variant == "base" && f.Measured != nil && f.Measured.Service == "database" {
			rs007 = &r.Findings[i]
		}
	}
	if rs007 == nil {
		t.Fatalf("no RS007 finding on the database with a measured amplification: %+v", r.Findings)
	}
	if m := rs007.Measured; m.Scenario != "instance-crash" || m.Amplification < 25 || m.Amplification > 27 {
		t.Errorf("measured %+v, want about 27x under instance-crash", m)
	}
	if len(r.Scenarios) != 2*len(scenarios) {
		t.Fatalf("%d scenario results, want %d", len(r.Scenarios), 2*len(scenarios))
	}
	for _, s := range r.Scenarios {
		if s.Variant != "retry-at-the-edge" {
			continue
		}
		if s.Verdict != "recovered" && s.Verdict != "unaffected" {
			t.Errorf("fixed variant, %s: %s (%s), want recovered or unaffected", s.Scenario, s.Verdict, s.Reason)
		}
		if s.Scenario == "instance-crash" && (s.Amplification < 2.8 || s.Amplification > 3) {
			t.Errorf("fixed variant, instance-crash: measured %.2fx, want about 3x", s.Amplification)
		}
	}
}

// TestSimulateDeterministic: the same file gives the same bytes.
func TestSimulateDeterministic(t *testing.T) {
	var a, b bytes.Buffer
	for _, buf := range []*bytes.Buffer{&a, &b} {
		e, src := loadBundled(t, "retry-amplification.toml")
		r, err := Check(e, src, "base")
		if err != nil {
			t.Fatal(err)
		}
		if err := Simulate(context.Background(), e, r, "base", runner.Budget{}); err != nil {
			t.Fatal(err)
		}
		if err := WriteJSON(buf, r); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two --simulate runs differ")
	}
}

package alerts

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ressim/ressim/internal/promtool/promtooltest"
	"github.com/ressim/ressim/sim/dist"
	"github.com/ressim/ressim/sim/topology"
)

// timingModel is a 6 s run whose 1 s latency fault at 2 s (x5 at 60 %
// load) builds a queue that drains before the run ends.
func timingModel() topology.Config {
	work := dist.Must(dist.Params{Kind: dist.Exponential, Mean: 10 * time.Millisecond})
	return topology.Config{Name: "timing", Duration: 6 * time.Second, Seed: 1,
		Clients:  []topology.ClientConfig{{Name: "users", Target: "api", Rate: 120}},
		Services: []topology.ServiceConfig{{Name: "api", Workers: 2, Steps: []topology.Step{{Kind: topology.WorkStep, Work: work}}}},
		Faults: []topology.FaultConfig{{Kind: topology.LatencyFault, Target: "api", Instance: -1,
			Start: 2 * time.Second, End: 3 * time.Second, Multiply: 5}},
	}
}

func writeRules(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "rules.yml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBaselineAlertIsFalseAlarm (issue 32): an alert that fires in the
// run without faults too is a false alarm for the fault, never a
// detection: no time to detect in the report nor the expectations.
func TestBaselineAlertIsFalseAlarm(t *testing.T) {
	promtooltest.Require(t)
	rules := writeRules(t, "groups:\n  - name: g\n    rules:\n      - alert: Always\n        expr: vector(1)\n")
	rep, err := Evaluate(context.Background(), timingModel(), Options{Rules: rules, EvalInterval: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	label := rep.Faults[0].Label
	d, ok := rep.Find(label, "Always")
	if !ok || !d.FalseAlarm {
		t.Errorf("Always fires without the fault: want a false alarm, got %+v", d)
	}
	if d.Detected() {
		t.Errorf("a false alarm counted as a detection: %+v", d)
	}
	var b bytes.Buffer
	rep.WriteText(&b)
	if out := b.String(); strings.Contains(out, "time to detect") || !strings.Contains(strings.ToLower(out), "false alarm") {
		t.Errorf("report:\n%s", out)
	}
	e, err := ParseExpect("Always fires within 1m")
	if err != nil {
		t.Fatal(err)
	}
	if r := e.Check(rep); r.OK {
		t.Errorf("a false alarm met a detection expectation: %v", r)
	}
	for _, p := range rep.Figure().Panels {
		if strings.HasPrefix(p.Title, "Always") && !strings.Contains(p.Title, "false alarm") {
			t.Errorf("figure panel %q does not say false alarm", p.Title)
		}
	}
}

package alerts

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ressim/ressim/internal/promtool/promtooltest"
	"github.com/ressim/ressim/sim/dist"
	"github.com/ressim/ressim/sim/run/runner"
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
	// A horizon is given, but a false alarm still firing at the end is no
	// reason to extend the run.
	rep, err := Evaluate(context.Background(), timingModel(), Options{Rules: rules, EvalInterval: time.Second, Horizon: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Extended != 0 {
		t.Errorf("run extended by %v for a false alarm", rep.Extended)
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

// TestExtendPastRunEnd (issue 32): an alert on a window longer than what
// is left of the run after the fault is still firing at the run's end;
// ressim alerts keeps simulating the same model past the end, up to the
// horizon (the longest window plus for), and reports its time to resolve
// and the extension.
func TestExtendPastRunEnd(t *testing.T) {
	promtooltest.Require(t)
	rules := writeRules(t, `groups:
  - name: g
    rules:
      - alert: SlowSeen
        expr: max_over_time(ressim_client_latency_seconds{quantile="0.99"}[8s]) > 0.1
`)
	cfg := timingModel()
	rep, err := Evaluate(context.Background(), cfg, Options{Rules: rules, EvalInterval: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	d, ok := rep.Find(rep.Faults[0].Label, "SlowSeen")
	if !ok || !d.Detected() {
		var b bytes.Buffer
		rep.WriteText(&b)
		t.Fatalf("SlowSeen did not detect the fault: %+v\n%s", d, b.String())
	}
	if !d.Resolved {
		t.Fatalf("SlowSeen has no time to resolve: %+v", d)
	}
	if rep.RunDuration != cfg.Duration || rep.Extended != 8*time.Second || rep.Duration != 14*time.Second {
		t.Errorf("run %v extended by %v to %v, want 6s by 8s to 14s", rep.RunDuration, rep.Extended, rep.Duration)
	}
	var b bytes.Buffer
	rep.WriteText(&b)
	t.Log(b.String())
	if out := b.String(); !strings.Contains(out, "extended by 8s") {
		t.Errorf("report does not say the run was extended:\n%s", out)
	}
	// A horizon too short to see it resolve: the report says why.
	rep, err = Evaluate(context.Background(), cfg, Options{Rules: rules, EvalInterval: time.Second, Horizon: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := rep.Find(rep.Faults[0].Label, "SlowSeen"); d.Resolved {
		t.Errorf("resolved within a 2 s horizon: %+v", d)
	}
	b.Reset()
	rep.WriteText(&b)
	if out := b.String(); !strings.Contains(strings.ToLower(out), "still firing at the horizon") {
		t.Errorf("report:\n%s", out)
	}
	// The extension is the same simulation, longer: the extended run
	// repeats the run's series, so nothing before the run's end changes.
	g := runner.NewMeter(context.Background(), runner.Budget{})
	short, err := simulate(g, cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Duration += 8 * time.Second
	long, err := simulate(g, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []topology.SeriesKey{topology.ClientGoodput, topology.ClientFailed} {
		a, b := short.Series.Find("users", k.Name).Values(), long.Series.Find("users", k.Name).Values()
		if len(b) <= len(a) || !slices.Equal(a, b[:len(a)]) {
			t.Errorf("users %s: extended run %v does not start with the run's %v", k.Name, b, a)
		}
	}
}

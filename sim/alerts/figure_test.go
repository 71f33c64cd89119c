package alerts

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/dist"
	"github.com/ressim/ressim/sim/run/runner"
	"github.com/ressim/ressim/sim/topology"
)

// figureReport is a Report on a small run with a fault and two clients,
// as Evaluate would make it (without promtool: the figure needs the run,
// the alert names and their episodes only).
func figureReport(t *testing.T) *Report {
	t.Helper()
	work := dist.Must(dist.Params{Kind: dist.Exponential, Mean: 10 * time.Millisecond})
	cfg := topology.Config{Name: "f", Duration: 6 * time.Second, Seed: 1,
		Clients: []topology.ClientConfig{{Name: "users", Target: "api", Rate: 100},
			{Name: "batch", Target: "api", Rate: 20}},
		Services: []topology.ServiceConfig{{Name: "api", Workers: 2, Steps: []topology.Step{{Kind: topology.WorkStep, Work: work}}}},
		Faults: []topology.FaultConfig{{Kind: topology.LatencyFault, Target: "api", Instance: -1,
			Start: 2 * time.Second, End: 3 * time.Second, Multiply: 5}},
	}
	res, err := simulate(runner.NewMeter(context.Background(), runner.Budget{}), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &Report{Experiment: "f", Rules: "rules.yml", EvalInterval: time.Second, Duration: res.Duration,
		Alerts: []string{"Slow"}, Episodes: []Episode{{Alert: "Slow", Pending: 2 * time.Second, Firing: 3 * time.Second, Fired: true}},
		run: res}
}

// TestFigureDrawsRecordedSeries: every line of the alerts figure is a
// series the run recorded, value for value, in every panel.
func TestFigureDrawsRecordedSeries(t *testing.T) {
	r := figureReport(t)
	fig := r.Figure()
	if len(fig.Panels) != 2 {
		t.Fatalf("%d panels, want the users' and one per alert", len(fig.Panels))
	}
	keys := map[string]topology.SeriesKey{"goodput": topology.ClientGoodput, "degraded": topology.ClientDegraded, "failed": topology.ClientFailed}
	lines := 0
	for _, p := range fig.Panels {
		for _, l := range p.Lines {
			client, what, _ := strings.Cut(l.Label, " ")
			col := r.run.Series.Find(client, keys[what].Name)
			if col == nil {
				t.Fatalf("panel %q draws %q, which the run did not record", p.Title, l.Label)
			}
			if !sameFloats(l.Y, col.Values()) {
				t.Errorf("panel %q line %q is not the recorded series", p.Title, l.Label)
			}
			lines++
		}
	}
	if lines != 3*2+2 {
		t.Errorf("%d lines, want goodput, degraded and failed of two clients and their goodput under the alert", lines)
	}
}

// TestFigureNoSilentZeroLine: a series the run did not record is not
// drawn as a flat zero, which reads as an outage (the figure once did,
// after sim/run had stopped doing so): the figure fails loudly, naming it.
func TestFigureNoSilentZeroLine(t *testing.T) {
	r := figureReport(t)
	r.run.Clients = append(r.run.Clients, topology.ClientResult{Name: "ghost"})
	defer func() {
		p := recover()
		if p == nil {
			t.Fatal("the figure drew the unrecorded client's series (as zeros, or something else)")
		}
		if msg := fmt.Sprint(p); !strings.Contains(msg, `"goodput" of "ghost"`) {
			t.Errorf("panic %q does not name the missing series", msg)
		}
	}()
	r.Figure()
}

func sameFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
			return false
		}
	}
	return true
}

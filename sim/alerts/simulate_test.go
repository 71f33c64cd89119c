package alerts

import (
	"context"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/dist"
	"github.com/ressim/ressim/sim/run/runner"
	"github.com/ressim/ressim/sim/topology"
)

// TestSimulateRecordsHistograms: the rules may use histogram_quantile on
// the latency histograms, which the model records only when asked, so the
// evaluator's run must ask.
func TestSimulateRecordsHistograms(t *testing.T) {
	work := dist.Must(dist.Params{Kind: dist.Exponential, Mean: 10 * time.Millisecond})
	cfg := topology.Config{Name: "h", Duration: 3 * time.Second, Seed: 1,
		Clients:  []topology.ClientConfig{{Name: "users", Target: "api", Rate: 100}},
		Services: []topology.ServiceConfig{{Name: "api", Workers: 2, Steps: []topology.Step{{Kind: topology.WorkStep, Work: work}}}},
	}
	res, err := simulate(runner.NewMeter(context.Background(), runner.Budget{}), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Histograms) != 2 {
		t.Errorf("%d latency histogram series, want 2 (users, api)", len(res.Histograms))
	}
}

package experiments_test

import (
	"math"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/queueing"
	"github.com/ressim/ressim/sim/topology"
)

// TestAbandonmentExperiment: the deadline-aware queue blocks as
// M/M/10/60+M does, the server without cancellation about twice as often.
func TestAbandonmentExperiment(t *testing.T) {
	q := queueing.MMcKM{Lambda: 2000, Mu: 100, Theta: 20, C: 10, K: 60}
	exact, err := q.Solve()
	if err != nil {
		t.Fatal(err)
	}
	// P(block)'s SD over the 35 s window, bounded as in sim/topology's
	// mmckmChecks: arrival noise plus the time average of 1{N = K}.
	vK, err := q.TimeAverageVariance(func(n int) float64 {
		if n == q.K {
			return 1
		}
		return 0
	})
	if err != nil {
		t.Fatal(err)
	}
	const window = 35.0
	p := exact.PBlock
	sd := math.Sqrt(p*(1-p)/(q.Lambda*window)) + math.Sqrt(vK/window)
	exp, err := experiment.Load("abandonment.toml")
	if err != nil {
		t.Fatal(err)
	}
	if len(exp.Variants) != 1 || exp.Variants[0].Model.Services[0].Abandonment != topology.OnExpiry {
		t.Fatalf("variants %+v: want one, on_expiry", exp.Variants)
	}
	block := func(cfg topology.Config) (float64, topology.ServiceResult) {
		res := runModel(t, cfg)
		s := res.Services[0]
		return float64(s.Rejected) / float64(s.Arrivals), s
	}
	pDeq, deq := block(exp.Model)
	pExp, onExp := block(exp.Variants[0].Model)
	if math.Abs(pExp-p) > 4*sd {
		t.Errorf("on_expiry: P(block) %.4g, M/M/10/60+M %.4g: off by more than 4 SD (%.3g)", pExp, p, 4*sd)
	}
	if pDeq < 1.5*exact.PBlock {
		t.Errorf("at_dequeue: P(block) %.4g, expected about twice M/M/10/60+M's %.4g", pDeq, exact.PBlock)
	}
	if deq.MeanExpiredInQueue < 5 || onExp.MeanExpiredInQueue != 0 {
		t.Errorf("expired requests queued on average: at_dequeue %.3g (want about 10), on_expiry %.3g (want 0)", deq.MeanExpiredInQueue, onExp.MeanExpiredInQueue)
	}
	if deq.Dropped >= onExp.Dropped {
		t.Errorf("dropped: at_dequeue %d, on_expiry %d; want fewer at dequeue", deq.Dropped, onExp.Dropped)
	}
	t.Logf("P(block): exact %.4g (SD %.2g), on_expiry %.4g, at_dequeue %.4g; expired queued (at_dequeue) %.3g", p, sd, pExp, pDeq, deq.MeanExpiredInQueue)
}

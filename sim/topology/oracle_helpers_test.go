package topology

import (
	"testing"
	"time"

	"github.com/ressim/ressim/sim/dist"
)

// oracleCase is one queueing model with exact answers.
type oracleCase struct {
	name     string
	lambda   float64       // arrivals per second
	workers  int           // c
	queue    int           // queue capacity, -1 unbounded
	service  dist.Params   // service time
	duration time.Duration // simulated time per run
	patience time.Duration // mean exponential patience (Erlang A); 0: none
	// abandonment: how the queue treats a request whose patience ran out.
	abandonment Abandonment
}

const (
	ms = time.Millisecond
	// oracleWarmup is discarded from every validation run: long enough for
	// the slowest-mixing case (M/M/10 at rho 0.9, relaxation time of order
	// 1/(c mu (1 - sqrt rho)^2) ~ 0.4 s) to forget its empty start many
	// times over.
	oracleWarmup = 10 * time.Second
)

func exp(mean time.Duration) dist.Params { return dist.Params{Kind: dist.Exponential, Mean: mean} }

// measures is what a validation run measured.
type measures struct {
	wq, w, p99w, pWait, pBlock float64 // s, s, s, fraction, fraction
	pAbandon                   float64 // fraction dropped for expired patience
	l, lambdaEff               float64 // time-average in system; completions per second
	lq, expiredQ               float64 // time-average live waiting; expired still queued
	customers                  uint64
}

func runOracle(t testing.TB, c oracleCase, seed uint64) measures {
	t.Helper()
	cfg := Config{
		Name:     c.name,
		Duration: c.duration + oracleWarmup,
		Warmup:   oracleWarmup,
		Seed:     seed,
		Clients:  []ClientConfig{{Name: "users", Target: "server", Rate: c.lambda}},
		// Exponential patience with propagation is Erlang A: a request
		// whose patience ran out while it waited is dropped, at once
		// (on_expiry) or when it reaches the head (at_dequeue).
		PropagateDeadlines: c.patience > 0,
		Services: []ServiceConfig{{Name: "server", Workers: c.workers, QueueCapacity: c.queue,
			Abandonment: c.abandonment, Steps: []Step{{Kind: WorkStep, Work: dist.Must(c.service)}}}},
	}
	if c.patience > 0 {
		cfg.Clients[0].Deadline = dist.Must(exp(c.patience))
	}
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := m.Run()
	if err != nil {
		t.Fatal(err)
	}
	s := res.Services[0]
	n := s.Sojourn.Count()
	return measures{
		wq:        s.Wait.Mean() / 1e9,
		w:         s.Sojourn.Mean() / 1e9,
		p99w:      float64(s.Sojourn.Quantile(0.99)) / 1e9,
		pWait:     float64(s.Delayed) / float64(n),
		pBlock:    float64(s.Rejected) / float64(s.Arrivals),
		pAbandon:  float64(s.Dropped) / float64(s.Arrivals),
		l:         s.MeanInSystem,
		lambdaEff: s.Throughput,
		lq:        s.MeanQueue,
		expiredQ:  s.MeanExpiredInQueue,
		customers: s.Arrivals,
	}
}

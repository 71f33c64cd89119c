package topology

import (
	"math"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/dist"
)

// TestQueueAgeOracle: one worker with a constant 100 ms service time
// under Poisson arrivals at 20/s (twice its capacity), unbounded FIFO
// queue, 100 s. At the end of interval t the worker has started about
// n = t / 100 ms requests, so the head of the queue is arrival n+1, which
// arrived at T_{n+1} ~ (n+1)/20 s: the oldest age is t - T_{n+1}, about
// t/2. T_n is a sum of n exponential gaps: its standard deviation is
// sqrt(n)/20 s, 1.6 s at n = 1000, so the measured age must lie within
// 5 standard deviations (plus one service time for the worker's phase)
// of t/2; and it must grow, interval after interval, by about half an
// interval (the queue's oldest request ages 1 s per second, and the worker
// takes 10 requests, 0.5 s of arrivals, off the head).
func TestQueueAgeOracle(t *testing.T) {
	cfg := Config{
		Name: "queue-age", Duration: 100 * time.Second, Seed: 7,
		Clients: []ClientConfig{{Name: "users", Target: "server", Rate: 20}},
		Services: []ServiceConfig{{Name: "server", Workers: 1, QueueCapacity: -1,
			Steps: []Step{{Kind: WorkStep, Work: dist.Must(dist.Params{Kind: dist.Constant, Mean: 100 * ms})}}}},
	}
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := m.Run()
	if err != nil {
		t.Fatal(err)
	}
	col := res.Series.Find("server", ServiceQueueAge.Name)
	if col == nil {
		t.Fatal("no queue_age column")
	}
	for _, at := range []int{25, 50, 100} {
		i := at - 1 // the interval ending at `at` seconds
		got := col.Value(i) / 1e3
		n := float64(at) * 10
		tol := 5*math.Sqrt(n)/20 + 0.1
		if want := float64(at) / 2; math.Abs(got-want) > tol {
			t.Errorf("at %d s: oldest queued %.2f s, want %.2f ± %.2f", at, got, want, tol)
		}
	}
	if first := col.Value(0); first < 0 || first > 1000 {
		t.Errorf("first interval: oldest queued %v ms, want within the first second", first)
	}
}

// TestQueueAgeEmpty: an idle service reports 0, not a missing value.
func TestQueueAgeEmpty(t *testing.T) {
	cfg := Config{
		Name: "idle", Duration: 5 * time.Second, Seed: 1,
		Clients:  []ClientConfig{{Name: "users", Target: "server", Rate: 1}},
		Services: []ServiceConfig{{Name: "server", Workers: 100, QueueCapacity: -1, Steps: []Step{{Kind: WorkStep, Work: dist.Must(exp(ms))}}}},
	}
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := m.Run()
	if err != nil {
		t.Fatal(err)
	}
	col := res.Series.Find("server", ServiceQueueAge.Name)
	for i := range col.Len() {
		if col.Value(i) != 0 {
			t.Fatalf("interval %d: queue age %v with 100 workers for 1 req/s", i, col.Value(i))
		}
	}
}

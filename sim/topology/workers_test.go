package topology

import (
	"math"
	"testing"
	"time"
)

// TestWorkersSeries: the workers series is the pool, time-averaged over
// each interval: 3 instances of 4 workers (12), less 2 workers on each
// instance during a workers fault (6), less an instance during a crash
// (8), and the average over an interval the crash covers half of (10).
func TestWorkersSeries(t *testing.T) {
	s := time.Second
	cfg := Config{Name: "pool", Duration: 50 * s, Interval: 10 * s, Seed: 5,
		Clients: []ClientConfig{{Name: "c", Target: "svc", Rate: 100}},
		Services: []ServiceConfig{{Name: "svc", Instances: 3, Workers: 4, QueueCapacity: -1,
			Steps: work(constant(time.Millisecond))}},
		Faults: []FaultConfig{
			{Kind: WorkersFault, Target: "svc", Instance: -1, Start: 10 * s, End: 20 * s, Count: 2},
			{Kind: CrashFault, Target: "svc", Instance: -1, Start: 20 * s, End: 35 * s, Count: 1},
		},
	}
	res := mustRun(t, cfg)
	col := res.Series.Find("svc", ServiceWorkers.Name)
	if col == nil {
		t.Fatal("no workers column")
	}
	want := []float64{12, 6, 8, 10, 12}
	if col.Len() != len(want) {
		t.Fatalf("%d intervals, want %d", col.Len(), len(want))
	}
	for i, w := range want {
		if got := col.Value(i); math.Abs(got-w) > 1e-9 {
			t.Errorf("interval %d: workers %g, want %g", i, got, w)
		}
	}
}

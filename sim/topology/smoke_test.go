package topology

import (
	"testing"
	"time"

	"github.com/ressim/ressim/sim/dist"
)

func TestSmokeMM10(t *testing.T) {
	cfg := Config{
		Name: "mm10", Duration: 1111 * time.Second, Warmup: 10 * time.Second, Seed: 1,
		Clients:  []ClientConfig{{Name: "users", Target: "server", Rate: 900}},
		Services: []ServiceConfig{{Name: "server", Workers: 10, QueueCapacity: -1, ServiceTime: dist.Must(dist.Params{Kind: dist.Exponential, Mean: 10 * time.Millisecond})}},
	}
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res, err := m.Run()
	if err != nil {
		t.Fatal(err)
	}
	s := res.Services[0]
	t.Logf("wall %v events %d arrivals %d completed %d wait %.6f sojourn %.6f L %.4f util %.4f p99 %v",
		time.Since(start), res.Events, s.Arrivals, s.Completed, s.Wait.Mean()/1e9, s.Sojourn.Mean()/1e9, s.MeanInSystem, s.Utilization, time.Duration(s.Sojourn.Quantile(0.99)))
}

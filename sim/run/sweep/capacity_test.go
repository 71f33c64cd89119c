package sweep

import (
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/dist"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/policies/retry"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/topology"
)

func work(mean time.Duration) []topology.Step {
	return []topology.Step{{Kind: topology.WorkStep, Work: dist.Must(dist.Params{Kind: dist.Exponential, Mean: mean})}}
}

// TestClientCapacity checks the formula of Capacity on models whose
// capacity is worked out by hand (each case says how).
func TestClientCapacity(t *testing.T) {
	one := topology.Config{
		Clients:  []topology.ClientConfig{{Name: "users", Target: "api", Rate: 10, Call: topology.CallPolicy{Retry: retry.Config{MaxAttempts: 3}}}},
		Services: []topology.ServiceConfig{{Name: "api", Workers: 10, Steps: work(10 * time.Millisecond)}},
	}
	// Two tiers: front (2 instances x 50 workers) works 5 ms and calls
	// back (50 workers, 20 ms) for half its requests, 1 ms network each
	// way. Front holds a worker 5 + 0.5 x (2 + 20) = 16 ms: 100 / 0.016 =
	// 6250/s; back sees 0.5 attempts per request: 50 / 0.02 / 0.5 =
	// 5000/s, the bottleneck. With 2 attempts per call (retried): front
	// 5 + 0.5 x 2 x 22 = 27 ms, 3704/s; back 50 / 0.02 / 1 = 2500/s.
	net := dist.Must(dist.Params{Kind: dist.Constant, Mean: time.Millisecond})
	back := topology.CallConfig{Service: "back", Probability: 0.5, Policy: topology.CallPolicy{Network: net, Retry: retry.Config{MaxAttempts: 2}}}
	two := topology.Config{
		Clients: []topology.ClientConfig{{Name: "users", Target: "front", Rate: 10}},
		Services: []topology.ServiceConfig{
			{Name: "front", Instances: 2, Workers: 50, Steps: append(work(5*time.Millisecond), topology.Step{Kind: topology.CallStep, Calls: []topology.CallConfig{back}})},
			{Name: "back", Workers: 50, Steps: work(20 * time.Millisecond)},
		},
	}
	// Another open-loop client sending 1000/s straight to back takes 20
	// of its 50 workers (1000 x 0.02): 30 / 0.02 / 0.5 = 3000/s left.
	shared := two
	shared.Clients = append([]topology.ClientConfig{}, two.Clients...)
	shared.Clients = append(shared.Clients, topology.ClientConfig{Name: "batch", Target: "back", Rate: 1000})
	// A warm cache in front of back hitting 80 %: back sees 0.5 x 0.2 =
	// 0.1 attempts per request (50 / 0.02 / 0.1 = 25000/s); front holds
	// 5 + 0.5 x (2 + 0.2 x 20) = 8 ms: 12500/s, now the bottleneck.
	cached := two
	cached.Services = append([]topology.ServiceConfig{}, two.Services...)
	cached.Services[1].Cache = &topology.CacheConfig{HitRatio: 0.8, Keys: 100}
	tests := []struct {
		name          string
		cfg           topology.Config
		client        string
		rate, retried float64
		service       string
	}{
		{"one service: 10 workers / 10 ms", one, "users", 1000, 1000.0 / 3, "api"},
		{"by index", one, "0", 1000, 1000.0 / 3, "api"},
		{"two tiers", two, "users", 5000, 2500, "back"},
		{"another client's load", shared, "users", 3000, 0, "back"},
		{"cache", cached, "users", 12500, 0, "front"},
	}
	for _, tc := range tests {
		got, ok := ClientCapacity(tc.cfg, tc.client)
		if !ok {
			t.Errorf("%s: no capacity", tc.name)
			continue
		}
		if math.Abs(got.Rate-tc.rate) > 1e-9*tc.rate || got.Service != tc.service {
			t.Errorf("%s: capacity %v at %q, want %v at %q", tc.name, got.Rate, got.Service, tc.rate, tc.service)
		}
		if tc.retried > 0 && math.Abs(got.Retried-tc.retried) > 1e-9*tc.retried {
			t.Errorf("%s: retried capacity %v, want %v", tc.name, got.Retried, tc.retried)
		}
	}
	if _, ok := ClientCapacity(one, "nobody"); ok {
		t.Error("an unknown client has a capacity")
	}
	if got := rateClient("client.users.rate"); got != "users" {
		t.Errorf("rateClient = %q", got)
	}
	for _, p := range []string{"fault.0.duration", "client.users.deadline", "service.api.workers"} {
		if got := rateClient(p); got != "" {
			t.Errorf("rateClient(%q) = %q, want none", p, got)
		}
	}
}

// TestBundledCapacities: the capacities the committed sweep figures mark
// are those their files' comments state (goodput-vs-load: 10 workers at
// 10 ms, 1000/s; metastable-phase: the same, and a third of it when all
// three attempts are made).
func TestBundledCapacities(t *testing.T) {
	for _, tc := range []struct {
		file          string
		rate, retried float64
	}{
		{"goodput-vs-load", 1000, 1000},
		{"metastable-phase", 1000, 1000.0 / 3},
	} {
		exp, err := experiment.Load(filepath.Join("..", "..", "..", "experiments", tc.file+".toml"))
		if err != nil {
			t.Fatal(err)
		}
		res, _, err := newSweep(exp, run.CompareOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for v, c := range res.capacity {
			if c == nil || math.Abs(c.Rate-tc.rate) > 1e-6 || math.Abs(c.Retried-tc.retried) > 1e-6 {
				t.Errorf("%s variant %s: capacity %+v, want %v (%v retried)", tc.file, res.Variants[v], c, tc.rate, tc.retried)
			}
		}
	}
}

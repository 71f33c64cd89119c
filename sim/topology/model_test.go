package topology

import (
	"errors"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/dist"
)

func mm10Config(d time.Duration) Config {
	return Config{
		Name: "mm10", Duration: d, Warmup: 10 * time.Second, Seed: 1,
		Clients:  []ClientConfig{{Name: "users", Target: "server", Rate: 900}},
		Services: []ServiceConfig{{Name: "server", Workers: 10, QueueCapacity: -1, Steps: []Step{{Kind: WorkStep, Work: dist.Must(exp(10 * ms))}}}},
	}
}

// TestMemoryBoundedByInFlight runs a million customers and checks that the
// model allocated requests only for the peak in flight, not per customer.
func TestMemoryBoundedByInFlight(t *testing.T) {
	m, err := New(mm10Config(1111 * time.Second))
	if err != nil {
		t.Fatal(err)
	}
	res, err := m.Run()
	if err != nil {
		t.Fatal(err)
	}
	if n := res.Services[0].Arrivals; n < 900_000 {
		t.Fatalf("only %d arrivals", n)
	}
	// M/M/10 at rho 0.9 has P(N > 300) < 1e-12; a per-customer leak
	// would allocate ~1e6.
	if m.pool.allocated > 300 {
		t.Errorf("allocated %d requests for a peak in flight that should stay under 300", m.pool.allocated)
	}
	if m.pool.live != res.Services[0].InFlightAtEnd {
		t.Errorf("pool says %d live, service says %d in flight", m.pool.live, res.Services[0].InFlightAtEnd)
	}
}

func TestRunTwice(t *testing.T) {
	m, _ := New(mm10Config(20 * time.Second))
	if _, err := m.Run(); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Run(); err == nil {
		t.Fatal("second Run succeeded")
	}
}

func TestConfigErrors(t *testing.T) {
	mut := []struct {
		name string
		f    func(*Config)
	}{
		{"no duration", func(c *Config) { c.Duration = 0 }},
		{"warmup >= duration", func(c *Config) { c.Warmup = c.Duration }},
		{"negative interval", func(c *Config) { c.Interval = -1 }},
		{"too many intervals", func(c *Config) { c.Interval = time.Microsecond }},
		{"no services", func(c *Config) { c.Services = nil }},
		{"no clients", func(c *Config) { c.Clients = nil }},
		{"unnamed service", func(c *Config) { c.Services[0].Name = "" }},
		{"duplicate service", func(c *Config) { c.Services = append(c.Services, c.Services[0]) }},
		{"zero workers", func(c *Config) { c.Services[0].Workers = 0 }},
		{"no distribution", func(c *Config) { c.Services[0].Steps[0].Work = dist.Dist{} }},
		{"unnamed client", func(c *Config) { c.Clients[0].Name = "" }},
		{"duplicate client", func(c *Config) { c.Clients = append(c.Clients, c.Clients[0]) }},
		{"zero rate", func(c *Config) { c.Clients[0].Rate = 0 }},
		{"missing target", func(c *Config) { c.Clients[0].Target = "nope" }},
	}
	for _, tt := range mut {
		c := mm10Config(100 * time.Second)
		tt.f(&c)
		if _, err := New(c); !errors.Is(err, ErrConfig) {
			t.Errorf("%s: err = %v, want ErrConfig", tt.name, err)
		}
	}
}

// TestTimeSeriesCoversRun checks the interval grid, including a final
// partial interval, and that per-interval counts add up to the totals.
func TestTimeSeriesCoversRun(t *testing.T) {
	c := mm10Config(25500 * time.Millisecond)
	c.Warmup = 0
	c.Interval = 2 * time.Second
	m, _ := New(c)
	res, err := m.Run()
	if err != nil {
		t.Fatal(err)
	}
	ts := res.Series
	if ts.Len() != 13 || ts.Start(0) != 0 || ts.End(12) != int64(c.Duration) || ts.Start(12) != int64(24*time.Second) {
		t.Fatalf("%d intervals, first starts %d, last %d..%d", ts.Len(), ts.Start(0), ts.Start(ts.Len()-1), ts.End(ts.Len()-1))
	}
	col := ts.Find("server", "arrivals")
	total := 0.0
	for i := 0; i < ts.Len(); i++ {
		total += col.Value(i) * float64(ts.End(i)-ts.Start(i)) / 1e9
	}
	if got := uint64(total + 0.5); got != res.Services[0].Arrivals {
		t.Errorf("interval arrivals sum to %d, total %d", got, res.Services[0].Arrivals)
	}
}

// BenchmarkMM10 is the model's speed on the validation case: customers
// (arrivals) per wall-clock second, reported as a custom metric.
func BenchmarkMM10(b *testing.B) {
	b.ReportAllocs()
	var customers uint64
	for i := 0; i < b.N; i++ {
		m, err := New(mm10Config(1111 * time.Second))
		if err != nil {
			b.Fatal(err)
		}
		res, err := m.Run()
		if err != nil {
			b.Fatal(err)
		}
		customers += res.Clients[0].Sent
	}
	b.ReportMetric(float64(customers)/b.Elapsed().Seconds(), "customers/s")
}

func TestOnProgress(t *testing.T) {
	m, err := New(mm10Config(25 * time.Second))
	if err != nil {
		t.Fatal(err)
	}
	var seen []time.Duration
	m.OnProgress(func(now, end time.Duration) {
		if end != 25*time.Second {
			t.Errorf("end %v", end)
		}
		seen = append(seen, now)
	})
	if _, err := m.Run(); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 25 || seen[0] != time.Second || seen[24] != 25*time.Second {
		t.Errorf("progress at %v, want every second up to 25 s", seen)
	}
}

package topology

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/ressim/ressim/sim/dist"
)

// Config describes one run of the model.
type Config struct {
	// Name names the experiment.
	Name string
	// Duration is the simulated time the run covers. Required, > 0.
	Duration time.Duration
	// Warmup is excluded from the summary statistics; 0 <= Warmup < Duration.
	Warmup time.Duration
	// Interval is the time-series resolution; 0 means DefaultInterval.
	Interval time.Duration
	// Seed seeds every random stream of the run.
	Seed uint64
	// Clients send the load; at least one.
	Clients []ClientConfig
	// Services serve it; at least one. Names are unique.
	Services []ServiceConfig
}

// DefaultInterval is the time-series resolution when Config.Interval is 0.
const DefaultInterval = time.Second

// MaxIntervals bounds the number of time-series intervals in one run
// (Duration / Interval), so that a typo cannot exhaust memory.
const MaxIntervals = 1_000_000

// ClientConfig is an open-loop client.
type ClientConfig struct {
	// Name identifies the client; unique among clients.
	Name string
	// Target names the service the client sends to.
	Target string
	// Rate is the mean arrival rate, requests per second, of a Poisson
	// process. > 0.
	Rate float64
}

// ServiceConfig is a service.
type ServiceConfig struct {
	// Name identifies the service; unique among services.
	Name string
	// Workers is the number of requests served in parallel. >= 1.
	Workers int
	// QueueCapacity is the number of requests that may wait for a worker:
	// < 0 for an unbounded queue, 0 for none.
	QueueCapacity int
	// ServiceTime is the distribution of the time a worker spends on one
	// request.
	ServiceTime dist.Dist
}

// Limits on sizes, so that no configuration can exhaust memory at build time.
const (
	MaxWorkers = 1_000_000
	MaxRate    = 1e9
)

// ErrConfig wraps every configuration error.
var ErrConfig = errors.New("invalid model configuration")

// Validate checks c and returns the first problem found.
func (c *Config) Validate() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s", ErrConfig, fmt.Sprintf(format, a...))
	}
	if c.Duration <= 0 {
		return bad("duration must be > 0, got %v", c.Duration)
	}
	if c.Warmup < 0 || c.Warmup >= c.Duration {
		return bad("warmup must be in [0, duration), got %v (duration %v)", c.Warmup, c.Duration)
	}
	if c.Interval < 0 {
		return bad("interval must be > 0, got %v", c.Interval)
	}
	if iv := c.interval(); int64(c.Duration/iv) > MaxIntervals {
		return bad("duration/interval = %d intervals, more than %d", int64(c.Duration/iv), MaxIntervals)
	}
	if len(c.Services) == 0 {
		return bad("no services")
	}
	if len(c.Clients) == 0 {
		return bad("no clients")
	}
	svcs := map[string]bool{}
	for i, s := range c.Services {
		if s.Name == "" {
			return bad("service %d has no name", i)
		}
		if svcs[s.Name] {
			return bad("service %q declared twice", s.Name)
		}
		svcs[s.Name] = true
		if s.Workers < 1 || s.Workers > MaxWorkers {
			return bad("service %q: workers must be in [1, %d], got %d", s.Name, MaxWorkers, s.Workers)
		}
		if s.ServiceTime.Kind() == 0 {
			return bad("service %q: no service time distribution", s.Name)
		}
	}
	clients := map[string]bool{}
	for i, cl := range c.Clients {
		if cl.Name == "" {
			return bad("client %d has no name", i)
		}
		if clients[cl.Name] {
			return bad("client %q declared twice", cl.Name)
		}
		clients[cl.Name] = true
		if !(cl.Rate > 0) || cl.Rate > MaxRate || math.IsInf(cl.Rate, 0) {
			return bad("client %q: rate must be in (0, %g] requests/s, got %v", cl.Name, MaxRate, cl.Rate)
		}
		if !svcs[cl.Target] {
			return bad("client %q targets unknown service %q", cl.Name, cl.Target)
		}
	}
	return nil
}

func (c *Config) interval() time.Duration {
	if c.Interval == 0 {
		return DefaultInterval
	}
	return c.Interval
}

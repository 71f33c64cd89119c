package topology

import (
	"math/rand/v2"
	"time"

	"github.com/ressim/ressim/sim/engine"
)

// client is an open-loop Poisson source of end-user requests.
type client struct {
	m      *Model
	cfg    ClientConfig
	target *service
	rng    *rand.Rand
	meanNs float64 // mean inter-arrival time, ns
	sent   uint64  // requests sent inside the window
}

func newClient(m *Model, cfg ClientConfig, target *service) *client {
	return &client{
		m:      m,
		cfg:    cfg,
		target: target,
		rng:    m.sim.Stream("client/" + cfg.Name),
		meanNs: 1e9 / cfg.Rate,
	}
}

func (c *client) start() {
	c.m.sim.After(c.gap(), c, nil)
}

func (c *client) gap() time.Duration {
	return time.Duration(c.rng.ExpFloat64()*c.meanNs + 0.5)
}

// Handle is an arrival: send one request and schedule the next arrival.
func (c *client) Handle(now engine.Time, _ any) {
	c.m.sim.After(c.gap(), c, nil)
	r := c.m.pool.get()
	r.client = c
	r.sent = now
	r.measured = now >= c.m.warmup
	if r.measured {
		c.sent++
	}
	c.target.arrive(now, r)
}

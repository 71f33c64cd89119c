package ctmc

import (
	"fmt"
	"reflect"

	"github.com/ressim/ressim/sim/dist"
	"github.com/ressim/ressim/sim/topology"
)

// queueClass checks what both chains need of a model (one service of c
// threads with a bounded queue and one exponential work step, fed by one
// open-loop client at a constant rate, with nothing else on the call)
// and returns the service and the client; its error wraps ErrClass and
// says what is outside the class. FromModel and ExactFromModel add what
// each chain needs of the timeout and the retries.
func queueClass(cfg topology.Config) (topology.ServiceConfig, topology.ClientConfig, error) {
	fail := func(format string, a ...any) (topology.ServiceConfig, topology.ClientConfig, error) {
		return topology.ServiceConfig{}, topology.ClientConfig{}, fmt.Errorf("%w: %s", ErrClass, fmt.Sprintf(format, a...))
	}
	if len(cfg.Services) != 1 || len(cfg.Clients) != 1 {
		return fail("needs one service and one client, the file has %d and %d", len(cfg.Services), len(cfg.Clients))
	}
	if len(cfg.Actions) > 0 {
		return fail("timed [[action]] blocks change the system over time; the chain is stationary")
	}
	s, c := cfg.Services[0], cfg.Clients[0]
	switch {
	case s.Instances > 1:
		return fail("service %q has %d instances; the chain has one", s.Name, s.Instances)
	case s.Mode != topology.Threads:
		return fail("service %q is async; the chain has c workers", s.Name)
	case s.QueueCapacity < 0:
		return fail("service %q has an unbounded queue; set queue_capacity", s.Name)
	case len(s.Operations) > 0 || len(s.Steps) != 1 || s.Steps[0].Kind != topology.WorkStep:
		return fail("service %q must have one work step and no calls or operations", s.Name)
	case s.Steps[0].Work.Kind() != dist.Exponential:
		return fail("service %q: service_time must be exponential, got %s", s.Name, s.Steps[0].Work.Kind())
	case s.Abandonment != topology.AtDequeue || !reflect.ValueOf(s.Cancellation).IsZero():
		return fail("service %q drops expired or cancelled requests; the chain serves every request it holds", s.Name)
	case s.Cache != nil || s.Contention != 0 || !reflect.ValueOf(s.Admission).IsZero() || !reflect.ValueOf(s.Guards).IsZero():
		return fail("service %q has a cache, contention, admission control or guards, outside the chain", s.Name)
	case c.Users > 0 || len(c.Schedule) > 0 || !(c.Rate > 0):
		return fail("client %q must be open-loop at a constant rate (no users, no schedule)", c.Name)
	case c.Operation != "" || c.Deadline.Kind() != 0:
		return fail("client %q has an operation or a deadline, outside the chain", c.Name)
	case c.Call.Hedge.MaxAttempts > 1 || c.Call.Network.Kind() != 0 || !reflect.ValueOf(c.Call.Guards).IsZero():
		return fail("client %q hedges, has a network delay or guards, outside the chain", c.Name)
	}
	return s, c, nil
}

package ctmc

import (
	"fmt"
	"reflect"

	"github.com/ressim/ressim/sim/dist"
	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/retry"
	"github.com/ressim/ressim/sim/topology"
)

// FromModel reads the chain's parameters from a model in the class, or
// says why the model is not in it (ErrClass). Notes lists what the chain
// approximates.
func FromModel(cfg topology.Config) (p Params, notes []string, err error) {
	no := func(format string, a ...any) (Params, []string, error) {
		return Params{}, nil, fmt.Errorf("%w: %s", ErrClass, fmt.Sprintf(format, a...))
	}
	if len(cfg.Services) != 1 || len(cfg.Clients) != 1 {
		return no("needs one service and one client, the file has %d and %d", len(cfg.Services), len(cfg.Clients))
	}
	if len(cfg.Actions) > 0 {
		return no("timed [[action]] blocks change the system over time; the chain is stationary")
	}
	s, c := cfg.Services[0], cfg.Clients[0]
	switch {
	case s.Instances > 1:
		return no("service %q has %d instances; the chain has one", s.Name, s.Instances)
	case s.Mode != topology.Threads:
		return no("service %q is async; the chain has c workers", s.Name)
	case s.QueueCapacity < 0:
		return no("service %q has an unbounded queue; set queue_capacity", s.Name)
	case len(s.Operations) > 0 || len(s.Steps) != 1 || s.Steps[0].Kind != topology.WorkStep:
		return no("service %q must have one work step and no calls or operations", s.Name)
	case s.Steps[0].Work.Kind() != dist.Exponential:
		return no("service %q: service_time must be exponential, got %s", s.Name, s.Steps[0].Work.Kind())
	case s.Abandonment != topology.AtDequeue || !reflect.ValueOf(s.Cancellation).IsZero():
		return no("service %q drops expired or cancelled requests; the chain serves every request it holds", s.Name)
	case s.Cache != nil || s.Contention != 0 || !reflect.ValueOf(s.Admission).IsZero() || !reflect.ValueOf(s.Guards).IsZero():
		return no("service %q has a cache, contention, admission control or guards, outside the chain", s.Name)
	case c.Users > 0 || len(c.Schedule) > 0 || !(c.Rate > 0):
		return no("client %q must be open-loop at a constant rate (no users, no schedule)", c.Name)
	case c.Operation != "" || c.Deadline.Kind() != 0:
		return no("client %q has an operation or a deadline, outside the chain", c.Name)
	case c.Call.Hedge.MaxAttempts > 1 || c.Call.Network.Kind() != 0 || !reflect.ValueOf(c.Call.Guards).IsZero():
		return no("client %q hedges, has a network delay or guards, outside the chain", c.Name)
	}
	p = Params{Lambda: c.Rate, Mu: 1 / s.Steps[0].Work.Mean().Seconds(), Workers: s.Workers, Capacity: s.Workers + s.QueueCapacity}
	if to := c.Call.Timeout; to > 0 {
		p.Theta = 1 / to.Seconds()
		if !c.Call.TimeoutExponential {
			notes = append(notes, fmt.Sprintf("the fixed timeout %v is taken as exponential with that mean (rate %.4g/s)", to, p.Theta))
		}
		notes = append(notes, "every request at the service times out at that rate; a timed-out request stays and is served (wasted work), and the chain does not remember which requests already timed out")
	}
	r := c.Call.Retry
	if r.MaxAttempts > 1 {
		if r.Backoff == retry.BackoffNone || !(r.Base > 0) {
			return no("client %q retries with backoff none; the orbit needs a backoff with a positive base (its mean)", c.Name)
		}
		if r.AttemptTimeout > 0 {
			return no("client %q has a per-attempt timeout, outside the chain", c.Name)
		}
		q := 1 - 1/float64(r.MaxAttempts)
		if r.RetryOn.Has(policies.Timeout) {
			p.RetryTimeout = q
		}
		if r.RetryOn.Has(policies.Rejected) {
			p.RetryRejected = q
		}
		p.Nu = 1 / r.Base.Seconds()
		notes = append(notes, fmt.Sprintf("the %s backoff is taken as exponential with mean base = %v", r.Backoff, r.Base))
		notes = append(notes, fmt.Sprintf("attempts = %d is taken as a geometric number of attempts: a failed attempt retries with probability 1 - 1/attempts = %.4g (the same mean number of attempts when every one fails)", r.MaxAttempts, q))
	}
	if len(cfg.Faults) > 0 {
		notes = append(notes, fmt.Sprintf("the %d [[fault]] blocks are ignored: the chain is the fault-free system", len(cfg.Faults)))
	}
	return p, notes, p.validate()
}

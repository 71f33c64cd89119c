package ctmc

import (
	"fmt"

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
	s, c, err := queueClass(cfg)
	if err != nil {
		return Params{}, nil, err
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

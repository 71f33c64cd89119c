package wall

import (
	"github.com/ressim/ressim/sim/policies/breaker"
	"github.com/ressim/ressim/sim/policies/budget"
	"github.com/ressim/ressim/sim/policies/bulkhead"
	"github.com/ressim/ressim/sim/policies/deadline"
	"github.com/ressim/ressim/sim/policies/fallback"
	"github.com/ressim/ressim/sim/policies/retry"
	"github.com/ressim/ressim/sim/policies/shed"
	"github.com/ressim/ressim/sim/policies/timeout"
)

// buildGuards builds the layers a call passes before its first attempt:
// load shedding, the bulkhead and the breaker. It returns the failing policy
// constructor's error unwrapped (New prefixes it).
func (c *Caller) buildGuards(cfg *Config) (err error) {
	if cfg.Shed != nil {
		if c.shedder, err = shed.New(*cfg.Shed); err != nil {
			return err
		}
	}
	if cfg.Bulkhead != nil {
		if c.bulk, err = bulkhead.NewSemaphore(*cfg.Bulkhead); err != nil {
			return err
		}
	}
	if cfg.BulkheadPool != nil {
		if c.bulk, err = bulkhead.NewPool(*cfg.BulkheadPool); err != nil {
			return err
		}
	}
	if c.bulk != nil {
		c.waiters = make(map[bulkhead.Ticket]chan struct{})
	}
	if cfg.Breaker != nil {
		if c.breaker, err = breaker.New(*cfg.Breaker); err != nil {
			return err
		}
	}
	if cfg.RetryBreaker != nil {
		if c.gate, err = breaker.NewRetryGate(*cfg.RetryBreaker); err != nil {
			return err
		}
	}
	return nil
}

// buildAttempts builds the layers around the attempts: timeout, retry, the
// two retry budgets, deadline slices and the fallback.
func (c *Caller) buildAttempts(cfg *Config) (err error) {
	if cfg.Timeout != nil {
		p, err := timeout.New(*cfg.Timeout)
		if err != nil {
			return err
		}
		c.timeout = &p
	}
	if cfg.Retry != nil {
		rc := *cfg.Retry
		if c.timeout != nil && rc.AttemptTimeout == 0 {
			rc.AttemptTimeout = c.timeout.Attempt()
		}
		if c.retry, err = retry.New(rc); err != nil {
			return err
		}
	}
	if q := cfg.quota(); q != (budget.QuotaConfig{}) {
		if c.budget, err = budget.NewQuota(q); err != nil {
			return err
		}
	}
	if cfg.RetryConcurrency != nil {
		if c.conc, err = budget.NewConcurrency(*cfg.RetryConcurrency); err != nil {
			return err
		}
	}
	if cfg.Deadline != nil {
		p, err := deadline.New(*cfg.Deadline)
		if err != nil {
			return err
		}
		c.deadline = &p
	}
	if cfg.Fallback != nil {
		if c.feature, err = fallback.New(cfg.Fallback.Feature); err != nil {
			return err
		}
	}
	return nil
}

package topology

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/dist"
	"github.com/ressim/ressim/sim/policies/hedge"
	"github.com/ressim/ressim/sim/policies/retry"
)

// CallPolicy is how a caller calls one dependency.
type CallPolicy struct {
	// Timeout bounds each attempt; 0 means none. With
	// TimeoutExponential it is the mean of the attempts' timeouts.
	Timeout time.Duration
	// TimeoutExponential draws each attempt's timeout from an exponential
	// distribution of mean Timeout (a file's timeout = { dist =
	// "exponential", mean = "..." }), from the site's own random stream,
	// so a fixed timeout's runs are unchanged. Analyses that need one
	// number (lint, the retry's deadline check) use the mean.
	TimeoutExponential bool
	// Retry, if MaxAttempts > 1, retries failed attempts (package retry).
	// MaxAttempts is 1 to retry.MaxMaxAttempts; 0, as in the zero value,
	// means a single attempt (a file refuses attempts = 0); negative is
	// invalid.
	Retry retry.Config
	// Hedge, if MaxAttempts > 1, sends further copies of the call after
	// its delay or a per-try timeout and takes the first good answer
	// (package hedge; gRPC's hedgingPolicy, Envoy's hedge_policy).
	// MaxAttempts 0, as in the zero value, or 1 means no hedging;
	// InitialRequests 0 means 1. A call
	// hedges or retries, not both (as in gRPC's service config); hedges
	// draw on the call's retry budget, as gRPC's retryThrottling does.
	Hedge hedge.Config
	// Network is the one-way network latency, applied to the request and
	// to the response. The zero Dist means none.
	Network dist.Dist
	// Guards are the call's resilience policies besides timeout and retry.
	Guards CallGuards
}

// CallConfig is a downstream call made by a handler.
type CallConfig struct {
	// Service is the callee; Operation names the call (default "call").
	Service, Operation string
	// Critical: a failed critical call fails the request; a failed
	// non-critical call only degrades it.
	Critical bool
	// Probability is the share of requests that make this call, in (0, 1];
	// 0 means 1 (a file writes that by leaving probability out: it refuses
	// probability = 0).
	Probability float64
	// Weight, in a ChooseStep, is the call's share of the step's requests
	// relative to the other calls' weights (80 and 20: four in five make
	// the first call), in (0, 10^6]; elsewhere it must be 0.
	Weight float64
	// Policy is the call's timeout, retries and network.
	Policy CallPolicy
}

func (p *CallPolicy) validate() error {
	if p.Timeout < 0 {
		return fmt.Errorf("negative timeout")
	}
	if p.TimeoutExponential && p.Timeout == 0 {
		return fmt.Errorf("an exponential timeout needs a positive mean")
	}
	if err := p.Guards.validate(); err != nil {
		return err
	}
	if err := SettingRetryAttempts.checkInt(p.Retry.MaxAttempts); err != nil {
		return err
	}
	if p.Retry.MaxAttempts > 1 {
		if err := p.Retry.Validate(); err != nil {
			return err
		}
	}
	return p.validateHedge()
}

// validateHedge checks the hedging policy, if any.
func (p *CallPolicy) validateHedge() error {
	h := p.Hedge
	if h.MaxAttempts == 0 {
		return nil
	}
	for _, c := range []struct {
		s Setting
		x float64
	}{{SettingHedgeAttempts, float64(h.MaxAttempts)}, {SettingHedgeInitialRequests, float64(h.InitialRequests)}, {SettingHedgeAdditionalChance, h.AdditionalChance}} {
		if err := c.s.check(c.x); err != nil {
			return err
		}
	}
	if h.MaxAttempts > 1 && p.Guards.BreakerInsideRetry {
		return fmt.Errorf("hedge with the breaker inside the retry loop: a hedged call's breaker guards the whole call (placement outside_retry)")
	}
	if h.MaxAttempts > 1 && p.Retry.MaxAttempts > 1 {
		return fmt.Errorf("hedge and retry on one call: a call hedges or retries, not both (gRPC's service config allows one of retryPolicy and hedgingPolicy)")
	}
	return p.hedgeConfig().Validate()
}

// hedgeConfig is Hedge with its zero InitialRequests read as 1.
func (p *CallPolicy) hedgeConfig() hedge.Config {
	h := p.Hedge
	if h.InitialRequests == 0 {
		h.InitialRequests = 1
	}
	return h
}

// hedges reports whether the call is hedged.
func (p *CallPolicy) hedges() bool { return p.Hedge.MaxAttempts > 1 }

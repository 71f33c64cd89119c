package wall

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/ressim/ressim/sim/policies/health"
)

// Check is one named health check, supplied by the user: it returns nil
// when the check passes. It runs under a context whose deadline is the
// probe's Timeout, and must honour it: the probe's timer goroutine waits
// for it.
type Check struct {
	Name string
	Fn   func(ctx context.Context) error
}

// HealthConfig configures a Health: a readiness probe, a liveness probe or
// both, each the conjunction of its checks (package health).
type HealthConfig struct {
	// Clock is the source of time. Nil means NewMonotonicClock().
	Clock Clock
	// Readiness configures the readiness probe (nil: none). Its checks
	// should be about this instance only: a readiness probe that checks
	// a shared dependency takes every instance out of the balancer at
	// once when that dependency fails (package health, Checks).
	Readiness *health.Config
	// ReadinessChecks are the readiness probe's checks; at least one when
	// Readiness is set.
	ReadinessChecks []Check
	// Liveness configures the liveness probe (nil: none).
	Liveness *health.Config
	// LivenessChecks are the liveness probe's checks; at least one when
	// Liveness is set.
	LivenessChecks []Check
	// OnTransition, if set, is called with every change of a verdict, in
	// the goroutine that ran the probe, with no lock held.
	OnTransition func(health.Transition)
}

// Health runs readiness and liveness probes from the clock: each probe runs
// its checks every Period (starting InitialDelay after NewHealth), and the
// probe's thresholds turn the results into a verdict, so that one slow or
// failed check does not flap the answer. ReadyHandler and LiveHandler serve
// the verdicts for a kubelet or a load balancer: 200 with the verdict, or
// 503 with the verdict and the first failing check. It is safe for
// concurrent use; call Close to stop the probes' timers.
type Health struct {
	clock   Clock
	onTrans func(health.Transition)

	mu     sync.Mutex
	probes [2]*prober // indexed by health.Kind; nil if not configured
	closed bool
}

// prober is one probe and its checks.
type prober struct {
	probe  *health.Probe
	checks *health.Checks
	fns    []Check
	stop   func() bool
}

// NewHealth validates cfg, runs the probes due at once (InitialDelay 0),
// arms the timers of the others and returns the Health.
func NewHealth(cfg HealthConfig) (*Health, error) {
	h := &Health{clock: cfg.Clock, onTrans: cfg.OnTransition}
	if h.clock == nil {
		h.clock = NewMonotonicClock()
	}
	start := h.clock.Now()
	specs := []struct {
		kind   health.Kind
		cfg    *health.Config
		checks []Check
		make   func(health.Config, time.Duration) (*health.Probe, error)
	}{
		{health.Readiness, cfg.Readiness, cfg.ReadinessChecks, health.NewReadiness},
		{health.Liveness, cfg.Liveness, cfg.LivenessChecks, health.NewLiveness},
	}
	for _, sp := range specs {
		if sp.cfg == nil {
			continue
		}
		p, err := newProber(*sp.cfg, sp.checks, start, sp.make)
		if err != nil {
			h.Close()
			return nil, fmt.Errorf("wall: %v probe: %w", sp.kind, err)
		}
		h.probes[sp.kind] = p
	}
	if h.probes[0] == nil && h.probes[1] == nil {
		return nil, fmt.Errorf("%w: Health without Readiness or Liveness", ErrInvalidConfig)
	}
	for _, p := range h.probes {
		if p != nil {
			h.schedule(p)
		}
	}
	return h, nil
}

func newProber(cfg health.Config, checks []Check, start time.Duration, mk func(health.Config, time.Duration) (*health.Probe, error)) (*prober, error) {
	names := make([]string, len(checks))
	for i, c := range checks {
		if c.Fn == nil {
			return nil, fmt.Errorf("%w: check %q without Fn", ErrInvalidConfig, c.Name)
		}
		names[i] = c.Name
	}
	cs, err := health.NewChecks(names...)
	if err != nil {
		return nil, err
	}
	p, err := mk(cfg, start)
	if err != nil {
		return nil, err
	}
	return &prober{probe: p, checks: cs, fns: checks}, nil
}

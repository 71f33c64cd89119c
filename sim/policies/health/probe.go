package health

import (
	"fmt"
	"time"
)

// Probe is a readiness or liveness probe of one container. Create it with
// NewReadiness or NewLiveness. It is not safe for concurrent use.
type Probe struct {
	cfg       Config
	kind      Kind
	state     State
	next      time.Duration // when the next probe is due
	successes int           // consecutive passing probes, capped at SuccessThreshold
	failures  int           // consecutive failing probes, capped at FailureThreshold
}

// NewReadiness returns a readiness probe for a container started at instant
// start: Unready, first probe due at start + InitialDelay. It returns an
// error wrapping ErrInvalidConfig for a bad Config.
func NewReadiness(cfg Config, start time.Duration) (*Probe, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("health.NewReadiness: %w", err)
	}
	return &Probe{cfg: cfg, kind: Readiness, state: Unready, next: start + cfg.InitialDelay}, nil
}

// NewLiveness returns a liveness probe for a container started at instant
// start: Live, first probe due at start + InitialDelay. It returns an error
// wrapping ErrInvalidConfig for a bad Config or a SuccessThreshold other
// than 1 (as Kubernetes does).
func NewLiveness(cfg Config, start time.Duration) (*Probe, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("health.NewLiveness: %w", err)
	}
	if cfg.SuccessThreshold != 1 {
		return nil, fmt.Errorf("health.NewLiveness: %w: SuccessThreshold %d must be 1 for liveness", ErrInvalidConfig, cfg.SuccessThreshold)
	}
	return &Probe{cfg: cfg, kind: Liveness, state: Live, next: start + cfg.InitialDelay}, nil
}

// Config returns the probe's configuration.
func (p *Probe) Config() Config { return p.cfg }

// Kind returns Readiness or Liveness.
func (p *Probe) Kind() Kind { return p.kind }

// State returns the probe's current verdict.
func (p *Probe) State() State { return p.state }

// Ready reports whether a readiness probe is Ready, or a liveness probe is
// Live.
func (p *Probe) Ready() bool { return p.state == Ready || p.state == Live }

// Counts returns the consecutive passing and failing probes, each capped at
// its threshold.
func (p *Probe) Counts() (successes, failures int) { return p.successes, p.failures }

// NextProbeAt returns the instant the next probe is due; ok is false for a
// liveness probe that is Restarting (no probe runs until Restarted).
func (p *Probe) NextProbeAt() (at time.Duration, ok bool) {
	if p.state == Restarting {
		return 0, false
	}
	return p.next, true
}

// Observe records a probe started at instant now whose check reported
// passed after took. The probe fails if !passed or took >= Timeout (the
// kubelet's timeout fires at Timeout, so a check that takes exactly that
// long has timed out). The next
// probe is due at now + max(Period, min(took, Timeout)). Observe returns the
// transition the probe caused, stamped with the instant its result became
// known (now + min(took, Timeout)). It is ignored while Restarting. A
// probe observed before NextProbeAt is accepted as the caller's decision.
func (p *Probe) Observe(now time.Duration, passed bool, took time.Duration) (Transition, bool) {
	if p.state == Restarting {
		return Transition{}, false
	}
	took = max(took, 0)
	if took >= p.cfg.Timeout {
		passed, took = false, p.cfg.Timeout
	}
	p.next = now + max(p.cfg.Period, took)
	at := now + took
	if passed {
		p.failures = 0
		p.successes = min(p.successes+1, p.cfg.SuccessThreshold)
		if p.state == Unready && p.successes >= p.cfg.SuccessThreshold {
			return p.move(at, Ready), true
		}
		return Transition{}, false
	}
	p.successes = 0
	p.failures = min(p.failures+1, p.cfg.FailureThreshold)
	if p.failures < p.cfg.FailureThreshold {
		return Transition{}, false
	}
	switch p.state {
	case Ready:
		return p.move(at, Unready), true
	case Live:
		return p.move(at, Restarting), true
	}
	return Transition{}, false
}

// Restarted reports that the container restarted at instant now: the probe
// returns to its initial verdict (Unready or Live) with its counters
// cleared, and its next probe is due at now + InitialDelay. It returns the
// transition, if the verdict changed.
func (p *Probe) Restarted(now time.Duration) (Transition, bool) {
	p.successes, p.failures = 0, 0
	p.next = now + p.cfg.InitialDelay
	initial := Unready
	if p.kind == Liveness {
		initial = Live
	}
	if p.state == initial {
		return Transition{}, false
	}
	return p.move(now, initial), true
}

func (p *Probe) move(at time.Duration, to State) Transition {
	t := Transition{Kind: p.kind, From: p.state, To: to, At: at}
	p.state = to
	if to == Restarting {
		p.successes, p.failures = 0, 0
	}
	return t
}

package topology

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/dist"
	"github.com/ressim/ressim/sim/engine"
	"github.com/ressim/ressim/sim/policies/budget"
	"github.com/ressim/ressim/sim/policies/hedge"
	"github.com/ressim/ressim/sim/policies/retry"
	"github.com/ressim/ressim/sim/policies/timeout"
)

// callSite is one (caller, callee, operation): the policies that guard the
// call live here, shared by every call made through it.
type callSite struct {
	m                  *Model
	caller, callee, op string
	target             *service
	handler            *handler // the callee's handler for op
	timeout            time.Duration
	to                 *timeout.Policy // the per-attempt timeout, nil if none
	lane               *engine.Lane    // timeouts, when constant
	toExp              dist.Dist       // the timeouts' distribution, when exponential
	toRng              *dist.Source    // its stream; nil for a constant timeout
	retry              *retry.Policy
	retryCfg           retry.Config  // the file's retry, for an action that changes it (action.go)
	hedge              *hedge.Policy // nil: the call is not hedged
	network            dist.Dist
	hasNet             bool
	// door: send may leave out the timeout of an attempt refused at the
	// door (refusesAtOnce), which needs the answer delivered at once, with
	// no network; TestDoorLeavesOutOnlyMootTimeouts clears it to compare.
	door   bool
	guards siteGuards
	rng    *dist.Source
	st     siteStats
}

func (m *Model) newSite(caller, callee, op string, p CallPolicy) (*callSite, error) {
	s := &callSite{
		m: m, caller: caller, callee: callee, op: op,
		target:   m.byName[callee],
		timeout:  p.Timeout,
		retryCfg: p.Retry,
		network:  p.Network,
		hasNet:   p.Network.Kind() != 0,
		door:     p.Network.Kind() == 0,
	}
	s.retryCfg.AttemptTimeout = p.Timeout
	h, ok := s.target.handlers[op]
	if !ok {
		h = s.target.handlers[""]
	}
	s.handler = h
	if s.op == "" {
		s.op = "call"
	}
	s.rng = m.source("site/" + s.name())
	if p.Timeout > 0 {
		to, err := timeout.New(timeout.Config{Attempt: p.Timeout})
		if err != nil {
			return nil, fmt.Errorf("topology: call %s: %w", s.name(), err)
		}
		s.to = &to
	}
	if err := s.buildTimeout(m, p); err != nil {
		return nil, err
	}
	if p.Retry.MaxAttempts > 1 {
		rc := p.Retry
		rc.AttemptTimeout = p.Timeout
		r, err := retry.New(rc)
		if err != nil {
			return nil, fmt.Errorf("topology: call %s: %w", s.name(), err)
		}
		s.retry = r
	}
	if p.hedges() {
		h, err := hedge.New(p.hedgeConfig())
		if err != nil {
			return nil, fmt.Errorf("topology: call %s: %w", s.name(), err)
		}
		s.hedge = h
	}
	if err := s.guards.build(p.Guards); err != nil {
		return nil, fmt.Errorf("topology: call %s: %w", s.name(), err)
	}
	s.finish()
	m.sites = append(m.sites, s)
	return s, nil
}

// name is "caller->callee/op".
func (s *callSite) name() string { return s.caller + "->" + s.callee + "/" + s.op }

// finish sets the site's flags that keep the common path short: whether
// any policy learns from attempts, whether sending has more to do than
// send, whether a call may hold or must pass a guard, and whether the
// budget earns per call.
func (s *callSite) finish() {
	g := &s.guards
	g.perCall, _ = g.budget.(*budget.PerCall)
	g.perAttempt = g.budget != nil || g.breaker != nil && g.breakerInside || g.retryGate != nil || s.target.outlier != nil
	g.sendGate = s.hedge != nil || g.breaker != nil && g.breakerInside
	g.limitsRetries = g.retryGate != nil || g.budget != nil || g.retryConc != nil
	g.holds = g.bulkhead != nil || g.breaker != nil && !g.breakerInside || g.retryConc != nil
	g.enter = g.holds || g.killed
}

// buildTimeout sets the site's timeout timers: a lane for a constant
// timeout, a distribution and its own stream for an exponential one.
func (s *callSite) buildTimeout(m *Model, p CallPolicy) error {
	switch {
	case p.Timeout > 0 && p.TimeoutExponential:
		d, err := dist.New(dist.Params{Kind: dist.Exponential, Mean: p.Timeout})
		if err != nil {
			return fmt.Errorf("topology: call %s: %w", s.name(), err)
		}
		s.toExp, s.toRng = d, m.source("site/"+s.name()+"/timeout")
	case p.Timeout > 0:
		lane, err := m.sim.NewLane(p.Timeout)
		if err != nil {
			return fmt.Errorf("topology: call %s: %w", s.name(), err)
		}
		s.lane = lane
	}
	return nil
}

package runner

import "github.com/ressim/ressim/sim/topology"

// A closed-loop user sends its next request a think time after the
// outcome of the last. When every request does its target's local work,
// the user's cycle is at least think time + that work; but a request may
// come back without any simulated time passing, and then the cycle is
// the think time alone: TestEstimateBothWays found generated files with
// breakers on closed-loop clients whose events Estimate under-counted by
// half, and a user with no think time whose requests are refused at once
// sends them for ever at one instant. atOnce and its helpers say, from
// the configuration, whether that can happen.

// instantly says whether a request of closed-loop client cl may come back
// at once: failed by the client's own guards, or answered at once by its
// target.
func (e *estimator) instantly(cl *topology.ClientConfig) bool {
	return refusesAtOnce(&cl.Call.Guards) || e.atOnce(cl.Target, cl.Operation)
}

// refusesAtOnce says whether a call's guards may fail it without waiting:
// an open breaker, a full semaphore bulkhead that does not wait, a full
// pool bulkhead.
func refusesAtOnce(g *topology.CallGuards) bool {
	return g.Breaker != nil || g.BulkheadPool != nil || (g.Bulkhead != nil && g.Bulkhead.MaxWaitDuration == 0)
}

// atOnce says whether an attempt at service's op handler may be answered
// without time passing: refused at the door (refuses), answered by the
// service's cache, or failed by a critical call, made before any local
// work, that may itself fail at once (a call with a fallback does not
// fail its request).
func (e *estimator) atOnce(service, op string) bool {
	key := service + "\x00" + op
	if v, ok := e.quick[key]; ok {
		return v
	}
	e.quick[key] = false // a cycle (rejected by Validate) answers nothing at once
	s := e.svc[service]
	if s == nil {
		return false
	}
	v := e.refuses(s) || s.Cache != nil
	steps, _ := s.HandlerFor(op)
	for i := 0; i < len(steps) && !v; i++ {
		st := &steps[i]
		if st.Kind == topology.WorkStep {
			if st.Work.Mean() > 0 {
				break
			}
			continue
		}
		for j := range st.Calls {
			cc := &st.Calls[j]
			if cc.Critical && cc.Policy.Guards.Fallback == nil &&
				(refusesAtOnce(&cc.Policy.Guards) || e.atOnce(cc.Service, cc.Operation)) {
				v = true
			}
		}
	}
	e.quick[key] = v
	return v
}

// refuses says whether service s may refuse an arriving attempt at once:
// at its door (shed, limit), because no instance is in the balancers
// (readiness, liveness and outlier detection may take them all out, a
// crash fault takes them down), because a kill switch skips the calls to
// it, or because its bounded queue may fill (mayFill). Queue drops
// (codel, lifo) come after a wait, not at once.
func (e *estimator) refuses(s *topology.ServiceConfig) bool {
	a, g := &s.Admission, &s.Guards
	if a.Shed != nil || a.Limit != nil || g.Readiness != nil || g.Liveness != nil || g.Outlier != nil {
		return true
	}
	for _, f := range e.cfg.Faults {
		if f.Target == s.Name && (f.Kind == topology.CrashFault || f.Kind == topology.KillSwitchFault) {
			return true
		}
	}
	return e.mayFill(s)
}

// mayFill says whether the bounded queue of s may be full when an attempt
// arrives. It may not only when closed-loop users alone call s, directly,
// with neither a timeout nor a deadline (a timed-out attempt stays at the
// service while its user sends the next), fewer than its room
// (instances x (workers + queue_capacity)), and no fault removes workers.
func (e *estimator) mayFill(s *topology.ServiceConfig) bool {
	if s.QueueCapacity < 0 {
		return false
	}
	for _, f := range e.cfg.Faults {
		if f.Target == s.Name && f.Kind == topology.WorkersFault {
			return true
		}
	}
	for i := range e.cfg.Services {
		for _, steps := range handlersOf(&e.cfg.Services[i]) {
			for _, st := range steps {
				for _, cc := range st.Calls {
					if cc.Service == s.Name {
						return true
					}
				}
			}
		}
	}
	users := 0
	for i := range e.cfg.Clients {
		cl := &e.cfg.Clients[i]
		if cl.Target != s.Name {
			continue
		}
		if cl.Users == 0 || cl.Call.Timeout > 0 || cl.Deadline.Kind() != 0 {
			return true
		}
		users += cl.Users
	}
	slots := s.Workers
	if s.Mode == topology.Async {
		slots = s.MaxInFlight
	}
	return users > max(s.Instances, 1)*(slots+s.QueueCapacity)
}

// handlersOf returns every handler of s: the default and the operations'.
func handlersOf(s *topology.ServiceConfig) [][]topology.Step {
	hs := [][]topology.Step{s.Steps}
	for _, o := range s.Operations {
		hs = append(hs, o.Steps)
	}
	return hs
}

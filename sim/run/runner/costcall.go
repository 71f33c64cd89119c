package runner

import "github.com/ressim/ressim/sim/topology"

// eventsPerAttempt is what one attempt costs the engine besides its
// handler's steps: its arrival, its response, its timeout and the
// delivery of the outcome to the caller.
const eventsPerAttempt = 4

// estimator computes the events one call costs, recursively down the call
// graph (acyclic: topology.Config.Validate rejects cycles), memoised per
// (service, operation).
type estimator struct {
	cfg  *topology.Config
	svc  map[string]*topology.ServiceConfig
	memo map[string]float64
	// quick memoises atOnce per (service, operation).
	quick map[string]bool
	// raised are the most retry attempts a timed action gives each call
	// site (newEstimator): a run may retry more than its configuration
	// says. The other actions only lower the events (shed, a kill switch,
	// a forced breaker) or change no count of them (workers, queues,
	// instances; a client's rate is counted by OpenRequests), so the
	// estimate stays an upper bound.
	raised map[topology.CallRef]int
}

// newEstimator returns the estimator of cfg's events.
func newEstimator(cfg *topology.Config) *estimator {
	e := &estimator{cfg: cfg, svc: map[string]*topology.ServiceConfig{}, memo: map[string]float64{}, quick: map[string]bool{},
		raised: map[topology.CallRef]int{}}
	for i := range cfg.Services {
		e.svc[cfg.Services[i].Name] = &cfg.Services[i]
	}
	for _, a := range cfg.Actions {
		if a.Kind == topology.ActionRetryAttempts {
			e.raised[a.Call] = max(e.raised[a.Call], a.Int)
		}
	}
	return e
}

// call is the events of one call with policy p at call site ref to
// service's operation op: at most every attempt its retry policy (or a
// timed action raising it) allows, or every copy its hedge sends, each
// with one more event for the hedge timer that sent it.
func (e *estimator) call(p topology.CallPolicy, ref topology.CallRef, service, op string) float64 {
	if h := p.Hedge.MaxAttempts; h > 1 {
		return float64(h) * (eventsPerAttempt + 1 + e.handler(service, op))
	}
	attempts := float64(max(p.Retry.MaxAttempts, e.raised[ref], 1))
	return attempts * (eventsPerAttempt + e.handler(service, op))
}

// handler is the events of one execution of service's op handler.
func (e *estimator) handler(service, op string) float64 {
	key := service + "\x00" + op
	if v, ok := e.memo[key]; ok {
		return v
	}
	e.memo[key] = 0 // a cycle (rejected by Validate) costs nothing more
	s := e.svc[service]
	if s == nil {
		return 0
	}
	steps, _ := s.HandlerFor(op)
	var ev float64
	for j, st := range steps {
		ev++ // the step itself
		for i, cc := range st.Calls {
			// the share of requests making the call: its probability, and
			// in a choose step its weight's share (topology.Step.Share)
			ref := topology.CallRef{Service: service, Operation: op, Step: j, Call: i}
			ev += st.Share(i) * e.call(cc.Policy, ref, cc.Service, cc.Operation)
		}
	}
	e.memo[key] = ev
	return ev
}

// work is the mean local work, seconds, of one execution of service's op
// handler, downstream calls not counted: the shortest a closed-loop
// user's cycle can be.
func (e *estimator) workOf(service, op string) float64 {
	s := e.svc[service]
	if s == nil {
		return 0
	}
	steps, _ := s.HandlerFor(op)
	var w float64
	for _, st := range steps {
		if st.Kind == topology.WorkStep {
			w += st.Work.Mean().Seconds()
		}
	}
	return w
}

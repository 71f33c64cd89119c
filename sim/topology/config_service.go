package topology

import (
	"fmt"
	"slices"

	"github.com/ressim/ressim/sim/dist"
)

// Mode is how a service instance holds its requests.
type Mode uint8

const (
	// Threads: thread-per-request. A worker is held for a request's whole
	// life, including while it waits on downstream calls: this is what
	// makes pools flood.
	Threads Mode = iota
	// Async: an event-loop service. A request holds one of MaxInFlight
	// slots for its whole life, but local work does not contend for
	// workers (its duration still grows with Contention).
	Async
)

// ServiceConfig is a service.
type ServiceConfig struct {
	// Name identifies the service; unique among services.
	Name string
	// Instances behind the balancer, 1 to MaxInstances; 0 means 1 (a file
	// writes that by leaving instances out: it refuses instances = 0).
	Instances int
	// Balancer spreads attempts over the instances.
	Balancer Balancer
	// Mode is Threads (default) or Async.
	Mode Mode
	// Workers per instance (Threads mode), 1 to MaxWorkers.
	Workers int
	// MaxInFlight per instance (Async mode), 1 to MaxWorkers.
	MaxInFlight int
	// QueueCapacity is the number of requests that may wait per instance,
	// 0 to MaxQueue: 0 none, -1 unbounded (a file writes that by leaving
	// queue_capacity out); other negatives are invalid.
	QueueCapacity int
	// Steps are the default handler: local work and calls, in order. It
	// serves every operation not listed in Operations.
	Steps []Step
	// Operations are handlers for named operations (a checkout service's
	// "checkout" and "cart", say), sharing the instances' workers.
	Operations []Operation
	// Contention makes local work slow down with load: each work step's
	// duration is multiplied by 1 + Contention * n, n the requests in
	// service at the instance (itself included), as in Brooker's collapse
	// simulations. In [0, 10^6]; 0 disables it.
	Contention float64
	// Cache, if not nil, is a look-aside cache that callers of this
	// service consult first.
	Cache *CacheConfig
	// Admission are the policies at the service's door and queue.
	Admission Admission
	// Guards are how callers watch the service's instances.
	Guards ServiceGuards
	// Abandonment is what happens to a queued request whose propagated
	// deadline passes while it waits: AtDequeue (default) or OnExpiry.
	Abandonment Abandonment
	// Cancellation is what the handler does once the attempt it serves
	// is cancelled: CancelNever (default), CancelAtStep or
	// CancelContinuous.
	Cancellation Cancellation
}

// Abandonment says when a queued request whose deadline has passed
// leaves the queue. It matters only with Config.PropagateDeadlines: the
// service knows no deadline otherwise.
type Abandonment uint8

const (
	// AtDequeue is a server without cancellation: an expired request
	// keeps its queue place (and counts against QueueCapacity) until it
	// reaches the head, where it is dropped instead of served.
	AtDequeue Abandonment = iota
	// OnExpiry is a deadline-aware queue: a waiting request is removed
	// the instant its deadline passes, freeing its place. With
	// exponential patience this is exactly M/M/c/K+M (Erlang A with a
	// finite queue). It needs the FIFO queue (not lifo).
	OnExpiry
)

var abandonmentNames = [...]string{"at_dequeue", "on_expiry"}

// String returns the abandonment's name as written in experiment files.
func (a Abandonment) String() string {
	if int(a) < len(abandonmentNames) {
		return abandonmentNames[a]
	}
	return "unknown"
}

// AbandonmentNames lists the abandonment semantics' names, in order.
func AbandonmentNames() []string { return slices.Clone(abandonmentNames[:]) }

// Operation is the handler of one named operation of a service.
type Operation struct {
	Name  string
	Steps []Step
}

// HandlerFor returns the steps that serve operation op: the operation's,
// else the default handler's; ok is false when neither exists.
func (s *ServiceConfig) HandlerFor(op string) ([]Step, bool) {
	for _, o := range s.Operations {
		if o.Name == op {
			return o.Steps, true
		}
	}
	return s.Steps, len(s.Steps) > 0
}

// handlers returns every handler of the service: the default (if any) and
// the operations'.
func (s *ServiceConfig) handlers() [][]Step {
	var hs [][]Step
	if len(s.Steps) > 0 {
		hs = append(hs, s.Steps)
	}
	for _, o := range s.Operations {
		hs = append(hs, o.Steps)
	}
	return hs
}

// StepKind says what a handler step does.
type StepKind uint8

// Step kinds.
const (
	WorkStep     StepKind = iota // local work for a duration
	CallStep                     // one downstream call, waited for
	ParallelStep                 // several calls at once, all waited for
	// ChooseStep makes one of its calls, drawn by the calls' Weight for
	// each request, and waits for it: a weighted traffic split (an 80/20
	// route between two versions of a service).
	ChooseStep
)

// Share is the fraction of requests that reach step st that make its
// call i: the call's Probability (0 meaning 1), times, in a ChooseStep,
// its Weight over the step's total. The cost estimate and the capacity
// analysis read it, so that they split the load as the model does.
func (st *Step) Share(i int) float64 {
	cc := &st.Calls[i]
	p := cc.Probability
	if p <= 0 || p > 1 {
		p = 1
	}
	if st.Kind != ChooseStep {
		return p
	}
	var total float64
	for _, c := range st.Calls {
		total += c.Weight
	}
	if total <= 0 {
		return 0
	}
	return p * cc.Weight / total
}

// choose returns the index of the call a request makes in a ChooseStep,
// u being a uniform draw in [0, 1): the first whose cumulative weight
// passes u x the total.
func (st *Step) choose(u float64) int {
	var total float64
	for _, c := range st.Calls {
		total += c.Weight
	}
	x := u * total
	for i, c := range st.Calls {
		if x < c.Weight {
			return i
		}
		x -= c.Weight
	}
	return len(st.Calls) - 1 // rounding at u close to 1
}

// Step is one step of a handler.
type Step struct {
	Kind StepKind
	// Work is the local work's duration (WorkStep).
	Work dist.Dist
	// Calls are the downstream calls (one for CallStep).
	Calls []CallConfig
}

// CacheConfig is a look-aside cache in front of a service. The keyspace has
// Keys keys of equal popularity; the warm cache holds HitRatio*Keys of
// them, so a lookup hits with probability filled/Keys. A miss goes to the
// service, and a successful answer (one its caller was still waiting for)
// fills one key. A flush empties the cache: refilling it takes one
// successful miss per key, which an overloaded service may never deliver.
type CacheConfig struct {
	// HitRatio is the share of lookups that hit when the cache is warm,
	// in [0, 1].
	HitRatio float64
	// Keys is the size of the keyspace, 1 to MaxKeys; no default in Go (a
	// file's default is 10000).
	Keys int
	// Latency of a lookup (hit or miss). The zero Dist means none.
	Latency dist.Dist
}

func (s *ServiceConfig) validate(svcs map[string]int, propagate bool) error {
	if err := s.validateCapacity(); err != nil {
		return bad("service %q: %v", s.Name, err)
	}
	if len(s.Steps) == 0 && len(s.Operations) == 0 {
		return bad("service %q has no handler", s.Name)
	}
	ops := map[string]bool{}
	for _, o := range s.Operations {
		if o.Name == "" || ops[o.Name] {
			return bad("service %q: operation names must be unique and not empty", s.Name)
		}
		ops[o.Name] = true
		if len(o.Steps) == 0 {
			return bad("service %q: operation %q has no steps", s.Name, o.Name)
		}
	}
	for _, h := range s.handlers() {
		if err := s.validateSteps(h, svcs); err != nil {
			return err
		}
	}
	if c := s.Cache; c != nil {
		if err := firstError(SettingCacheHitRatio.check(c.HitRatio), SettingCacheKeys.checkInt(c.Keys)); err != nil {
			return bad("service %q: cache %v", s.Name, err)
		}
	}
	if err := s.validatePolicies(svcs); err != nil {
		return bad("service %q: %v", s.Name, err)
	}
	if int(s.Cancellation) >= len(cancellationNames) {
		return bad("service %q: unknown cancellation mode %d", s.Name, s.Cancellation)
	}
	return s.validateAbandonment(propagate)
}

// validateCapacity checks the instances, balancer, mode, the workers or
// slots the mode uses, the queue and the contention.
func (s *ServiceConfig) validateCapacity() error {
	if err := SettingInstances.checkInt(s.Instances); err != nil {
		return err
	}
	if !s.Balancer.known() {
		return fmt.Errorf("unknown balancer")
	}
	switch s.Mode {
	case Threads:
		if err := SettingWorkers.checkInt(s.Workers); err != nil {
			return err
		}
	case Async:
		if err := SettingMaxInFlight.checkInt(s.MaxInFlight); err != nil {
			return err
		}
	default:
		return fmt.Errorf("unknown mode")
	}
	return firstError(SettingQueueCapacity.checkInt(s.QueueCapacity), SettingContention.check(s.Contention))
}

// validateAbandonment checks that OnExpiry can apply: the service must
// know deadlines, and its queue must be the FIFO one.
func (s *ServiceConfig) validateAbandonment(propagate bool) error {
	switch s.Abandonment {
	case AtDequeue:
		return nil
	case OnExpiry:
	default:
		return bad("service %q: unknown abandonment", s.Name)
	}
	if !propagate {
		return bad("service %q: abandonment on_expiry needs propagate_deadlines: without it the service knows no deadline", s.Name)
	}
	if s.Admission.LIFO != nil {
		return bad("service %q: abandonment on_expiry does not combine with lifo, whose queue timeouts drop expired requests themselves", s.Name)
	}
	return nil
}

func (s *ServiceConfig) validateSteps(steps []Step, svcs map[string]int) error {
	if len(steps) > MaxSteps {
		return bad("service %q: a handler has at most %d steps, got %d", s.Name, MaxSteps, len(steps))
	}
	for i, st := range steps {
		switch st.Kind {
		case WorkStep:
			if st.Work.Kind() == 0 {
				return bad("service %q step %d: no work distribution", s.Name, i)
			}
		case CallStep, ParallelStep, ChooseStep:
			if len(st.Calls) == 0 || (st.Kind == CallStep && len(st.Calls) != 1) || (st.Kind == ChooseStep && len(st.Calls) < 2) {
				return bad("service %q step %d: wrong number of calls", s.Name, i)
			}
			for _, cc := range st.Calls {
				if st.Kind == ChooseStep {
					if err := SettingCallWeight.check(cc.Weight); err != nil {
						return bad("service %q call to %q: %v", s.Name, cc.Service, err)
					}
				} else if cc.Weight != 0 {
					return bad("service %q call to %q: a weight splits a choose step's requests; this step makes every call", s.Name, cc.Service)
				}
				if _, ok := svcs[cc.Service]; !ok {
					return bad("service %q calls unknown service %q", s.Name, cc.Service)
				}
				if err := SettingCallProbability.check(cc.Probability); err != nil {
					return bad("service %q call to %q: %v", s.Name, cc.Service, err)
				}
				if err := cc.Policy.validate(); err != nil {
					return bad("service %q call to %q: %v", s.Name, cc.Service, err)
				}
			}
		default:
			return bad("service %q step %d: unknown kind", s.Name, i)
		}
	}
	return nil
}

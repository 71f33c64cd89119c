package topology

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/ressim/ressim/sim/dist"
	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/retry"
)

// Config describes one run of the model.
type Config struct {
	// Name names the experiment.
	Name string
	// Duration is the simulated time the run covers. Required, > 0.
	Duration time.Duration
	// Warmup is excluded from the summary statistics; 0 <= Warmup < Duration.
	Warmup time.Duration
	// Interval is the time-series resolution; 0 means DefaultInterval.
	Interval time.Duration
	// Seed seeds every random stream of the run.
	Seed uint64
	// Clients send the load; at least one.
	Clients []ClientConfig
	// Services serve it; at least one. Names are unique.
	Services []ServiceConfig
	// Faults are scheduled disturbances.
	Faults []FaultConfig
	// Recovery sets how recovery after each fault is judged.
	Recovery RecoveryConfig
	// Trace samples user requests for a trace-event file (Result.WriteTrace).
	Trace TraceConfig
	// PropagateDeadlines sends each user request's deadline along with
	// every downstream call, as gRPC and context.Context do: a service
	// drops a request whose deadline has passed when it leaves the queue,
	// makes no downstream call once it has passed, and cuts each attempt's
	// timeout to what is left. Without it only the client knows the
	// deadline, and callees keep working for callers that gave up.
	PropagateDeadlines bool
}

// DefaultInterval is the time-series resolution when Config.Interval is 0.
const DefaultInterval = time.Second

// MaxIntervals bounds the number of time-series intervals in one run
// (Duration / Interval), so that a typo cannot exhaust memory.
const MaxIntervals = 1_000_000

// ClientConfig is a source of end-user requests: open-loop (Rate or
// Schedule) or closed-loop (Users).
type ClientConfig struct {
	// Name identifies the client; unique among clients.
	Name string
	// Target names the service the client calls; Operation names the call.
	Target, Operation string
	// Rate is the arrival rate of an open-loop Poisson client, requests
	// per second, when Schedule is empty.
	Rate float64
	// Schedule, if not empty, makes the rate vary over time: see
	// RatePoint. Rate is then ignored.
	Schedule []RatePoint
	// Linear interpolates the schedule linearly between points (a ramp);
	// otherwise each point's rate holds until the next point (steps).
	Linear bool
	// Users, if > 0, makes the client closed-loop: that many users, each
	// sending a request, waiting for its outcome, thinking for ThinkTime,
	// and sending again.
	Users int
	// ThinkTime is a closed-loop user's pause between requests.
	ThinkTime dist.Dist
	// Deadline is the user's patience: a request not answered within it
	// has failed, whatever comes later. The zero Dist means no deadline.
	Deadline dist.Dist
	// Call is how the client calls its target: timeout, retries, network.
	Call CallPolicy
	// Priority is the class of the client's requests; it travels with
	// them to every hop, where load shedding drops the lowest first.
	Priority policies.Priority
}

// RatePoint is a point of a rate schedule: from At on, the rate is Rate
// (requests per second), up to the next point. Points are in increasing
// order of At; the first is at 0.
type RatePoint struct {
	At   time.Duration
	Rate float64
}

// CallPolicy is how a caller calls one dependency.
type CallPolicy struct {
	// Timeout bounds each attempt; 0 means none.
	Timeout time.Duration
	// Retry, if MaxAttempts > 1, retries failed attempts (package retry).
	// The zero value means a single attempt.
	Retry retry.Config
	// Network is the one-way network latency, applied to the request and
	// to the response. The zero Dist means none.
	Network dist.Dist
	// Guards are the call's resilience policies besides timeout and retry.
	Guards CallGuards
}

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

// Balancer picks the instance that receives an attempt.
type Balancer uint8

// Balancers.
const (
	RoundRobin Balancer = iota
	Random
	LeastOutstanding
	PowerOfTwo
)

var balancerNames = [...]string{"round_robin", "random", "least_outstanding", "power_of_two"}

// String returns the balancer's name as written in experiment files.
func (b Balancer) String() string {
	if int(b) < len(balancerNames) {
		return balancerNames[b]
	}
	return "unknown"
}

// ParseBalancer returns the balancer with the given name.
func ParseBalancer(s string) (Balancer, bool) {
	i := slices.Index(balancerNames[:], s)
	return Balancer(i), i >= 0
}

// BalancerNames lists the balancers' names.
func BalancerNames() []string { return slices.Clone(balancerNames[:]) }

// ServiceConfig is a service.
type ServiceConfig struct {
	// Name identifies the service; unique among services.
	Name string
	// Instances behind the balancer; 0 means 1.
	Instances int
	// Balancer spreads attempts over the instances.
	Balancer Balancer
	// Mode is Threads (default) or Async.
	Mode Mode
	// Workers per instance (Threads mode). >= 1.
	Workers int
	// MaxInFlight per instance (Async mode). >= 1.
	MaxInFlight int
	// QueueCapacity is the number of requests that may wait per instance:
	// < 0 unbounded, 0 none.
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
	// simulations. 0 disables it.
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

// handlerFor returns the steps that serve operation op.
func (s *ServiceConfig) handlerFor(op string) ([]Step, bool) {
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
)

// Step is one step of a handler.
type Step struct {
	Kind StepKind
	// Work is the local work's duration (WorkStep).
	Work dist.Dist
	// Calls are the downstream calls (one for CallStep).
	Calls []CallConfig
}

// CallConfig is a downstream call made by a handler.
type CallConfig struct {
	// Service is the callee; Operation names the call (default "call").
	Service, Operation string
	// Critical: a failed critical call fails the request; a failed
	// non-critical call only degrades it.
	Critical bool
	// Probability is the share of requests that make this call, in (0, 1];
	// 0 means 1.
	Probability float64
	// Policy is the call's timeout, retries and network.
	Policy CallPolicy
}

// CacheConfig is a look-aside cache in front of a service. The keyspace has
// Keys keys of equal popularity; the warm cache holds HitRatio*Keys of
// them, so a lookup hits with probability filled/Keys. A miss goes to the
// service, and a successful answer (one its caller was still waiting for)
// fills one key. A flush empties the cache: refilling it takes one
// successful miss per key, which an overloaded service may never deliver.
type CacheConfig struct {
	HitRatio float64
	Keys     int
	// Latency of a lookup (hit or miss). The zero Dist means none.
	Latency dist.Dist
}

// FaultKind is what a fault does.
type FaultKind uint8

// Fault kinds.
const (
	LatencyFault    FaultKind = iota // local work multiplied by Multiply and lengthened by Add
	ErrorFault                       // responses fail with probability Rate
	CrashFault                       // Count instances down: their work is lost, the balancer skips them
	WorkersFault                     // Count workers (or async slots) removed from each instance
	FreezeFault                      // a stop-the-world pause: local work makes no progress
	LoadFault                        // a client's rate multiplied by Multiply
	CacheFlushFault                  // the target's cache emptied at Start
	KillSwitchFault                  // calls to the target (from Caller, or anyone) skipped: the fallback answers
)

var faultNames = [...]string{"latency", "error", "crash", "workers", "freeze", "load", "cache_flush", "kill_switch"}

// String returns the fault kind's name as written in experiment files.
func (k FaultKind) String() string {
	if int(k) < len(faultNames) {
		return faultNames[k]
	}
	return "unknown"
}

// ParseFaultKind returns the kind with the given name.
func ParseFaultKind(s string) (FaultKind, bool) {
	i := slices.Index(faultNames[:], s)
	return FaultKind(i), i >= 0
}

// FaultKindNames lists the fault kinds' names.
func FaultKindNames() []string { return slices.Clone(faultNames[:]) }

// FaultConfig is a scheduled fault, active over [Start, End).
type FaultConfig struct {
	Kind FaultKind
	// Target is a service (or a client, for LoadFault).
	Target string
	// Instance, if >= 0, limits a service fault to one instance; -1 means
	// every instance.
	Instance int
	// Start and End bound the fault; End is ignored by CacheFlushFault.
	Start, End time.Duration
	// Multiply: LatencyFault's factor on local work (>= 0; 0 means 1),
	// LoadFault's factor on the rate.
	Multiply float64
	// Add: LatencyFault's extra duration per work step.
	Add time.Duration
	// Rate: ErrorFault's failure probability, in [0, 1].
	Rate float64
	// Count: instances (CrashFault) or workers (WorkersFault) lost.
	Count int
	// Label describes the fault in reports; empty means a generated one.
	Label string
	// Caller limits a kill switch to the calls made by one service (or
	// "client:NAME"); empty means every caller.
	Caller string
}

// RecoveryConfig sets how recovery after a fault is judged.
type RecoveryConfig struct {
	// Threshold is the share of the baseline goodput that counts as
	// recovered; 0 means 0.9.
	Threshold float64
	// Window is the shortest test window; 0 means 5 s. A window is
	// lengthened until the threshold predicts MinExpected full answers in
	// it, and rounded up to whole intervals.
	Window time.Duration
	// Alpha is the false-alarm level of the end-state test: how likely a
	// system whose goodput is at the threshold is judged locked in; 0
	// means DefaultRecoveryAlpha.
	Alpha float64
}

// Limits on sizes, so that no configuration can exhaust memory at build time.
const (
	MaxWorkers   = 1_000_000
	MaxInstances = 10_000
	MaxRate      = 1e9
	MaxUsers     = 10_000_000
	MaxSteps     = 1000
	MaxKeys      = 1 << 30
)

// ErrConfig wraps every configuration error.
var ErrConfig = errors.New("invalid model configuration")

func bad(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrConfig, fmt.Sprintf(format, a...))
}

// Validate checks c and returns the first problem found.
func (c *Config) Validate() error {
	if c.Duration <= 0 {
		return bad("duration must be > 0, got %v", c.Duration)
	}
	if c.Warmup < 0 || c.Warmup >= c.Duration {
		return bad("warmup must be in [0, duration), got %v (duration %v)", c.Warmup, c.Duration)
	}
	if c.Interval < 0 {
		return bad("interval must be > 0, got %v", c.Interval)
	}
	if iv := c.interval(); int64(c.Duration/iv) > MaxIntervals {
		return bad("duration/interval = %d intervals, more than %d", int64(c.Duration/iv), MaxIntervals)
	}
	if c.Trace.Every < 0 || c.Trace.Max < 0 {
		return bad("trace sampling must be >= 0")
	}
	if r := c.Recovery; r.Threshold < 0 || r.Threshold > 1 || math.IsNaN(r.Threshold) || r.Window < 0 || !(r.Alpha >= 0 && r.Alpha < 0.5) {
		return bad("recovery threshold must be in [0, 1], window >= 0 and alpha in [0, 0.5)")
	}
	if len(c.Services) == 0 {
		return bad("no services")
	}
	if len(c.Clients) == 0 {
		return bad("no clients")
	}
	svcs := map[string]int{}
	for i, s := range c.Services {
		if s.Name == "" {
			return bad("service %d has no name", i)
		}
		if _, dup := svcs[s.Name]; dup {
			return bad("service %q declared twice", s.Name)
		}
		svcs[s.Name] = i
	}
	for _, s := range c.Services {
		if err := s.validate(svcs, c.PropagateDeadlines); err != nil {
			return err
		}
	}
	if err := c.checkCycles(svcs); err != nil {
		return err
	}
	for _, s := range c.Services {
		for _, h := range s.handlers() {
			for _, st := range h {
				for _, cc := range st.Calls {
					if _, ok := c.Services[svcs[cc.Service]].handlerFor(cc.Operation); !ok {
						return bad("service %q calls operation %q of %q, which has no handler for it", s.Name, cc.Operation, cc.Service)
					}
				}
			}
		}
	}
	clients := map[string]bool{}
	for i, cl := range c.Clients {
		if cl.Name == "" {
			return bad("client %d has no name", i)
		}
		if clients[cl.Name] {
			return bad("client %q declared twice", cl.Name)
		}
		clients[cl.Name] = true
		if err := cl.validate(svcs); err != nil {
			return err
		}
	}
	for i, f := range c.Faults {
		if err := f.validate(c, svcs, clients); err != nil {
			return fmt.Errorf("fault %d (%s): %w", i, f.Kind, err)
		}
	}
	return nil
}

func (s *ServiceConfig) validate(svcs map[string]int, propagate bool) error {
	if s.Instances < 0 || s.Instances > MaxInstances {
		return bad("service %q: instances must be in [1, %d], got %d", s.Name, MaxInstances, s.Instances)
	}
	if s.Balancer > PowerOfTwo {
		return bad("service %q: unknown balancer", s.Name)
	}
	switch s.Mode {
	case Threads:
		if s.Workers < 1 || s.Workers > MaxWorkers {
			return bad("service %q: workers must be in [1, %d], got %d", s.Name, MaxWorkers, s.Workers)
		}
	case Async:
		if s.MaxInFlight < 1 || s.MaxInFlight > MaxWorkers {
			return bad("service %q: max_in_flight must be in [1, %d], got %d", s.Name, MaxWorkers, s.MaxInFlight)
		}
	default:
		return bad("service %q: unknown mode", s.Name)
	}
	if !(s.Contention >= 0) || s.Contention > 1e6 {
		return bad("service %q: contention must be in [0, 1e6]", s.Name)
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
		if !(c.HitRatio >= 0 && c.HitRatio <= 1) || c.Keys < 1 || c.Keys > MaxKeys {
			return bad("service %q: cache needs hit_ratio in [0, 1] and keys in [1, %d]", s.Name, MaxKeys)
		}
	}
	if err := s.validatePolicies(svcs); err != nil {
		return bad("service %q: %v", s.Name, err)
	}
	return s.validateAbandonment(propagate)
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

func (s *ServiceConfig) validatePolicies(svcs map[string]int) error {
	a := &s.Admission
	if a.Shed != nil {
		if err := a.Shed.Validate(); err != nil {
			return err
		}
	}
	if a.CoDel != nil {
		if err := a.CoDel.Validate(); err != nil {
			return err
		}
	}
	if a.LIFO != nil {
		if err := a.LIFO.Validate(); err != nil {
			return err
		}
		if a.CoDel != nil {
			return fmt.Errorf("codel and lifo both manage the queue; choose one (lifo has its own controlled delay)")
		}
	}
	if a.Limit != nil {
		if _, err := a.Limit.build(); err != nil {
			return err
		}
	}
	g := &s.Guards
	if g.Outlier != nil {
		if err := g.Outlier.Validate(); err != nil {
			return err
		}
	}
	if l := g.Liveness; l != nil {
		if err := l.Probe.Validate(); err != nil {
			return err
		}
		if l.RestartTime < 0 {
			return fmt.Errorf("liveness restart time must be >= 0")
		}
	}
	if r := g.Readiness; r != nil {
		if err := r.Probe.Validate(); err != nil {
			return err
		}
		for _, d := range r.DependsOn {
			if _, ok := svcs[d]; !ok {
				return fmt.Errorf("readiness depends on unknown service %q", d)
			}
		}
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
		case CallStep, ParallelStep:
			if len(st.Calls) == 0 || (st.Kind == CallStep && len(st.Calls) != 1) {
				return bad("service %q step %d: wrong number of calls", s.Name, i)
			}
			for _, cc := range st.Calls {
				if _, ok := svcs[cc.Service]; !ok {
					return bad("service %q calls unknown service %q", s.Name, cc.Service)
				}
				if !(cc.Probability >= 0 && cc.Probability <= 1) {
					return bad("service %q: call probability must be in [0, 1]", s.Name)
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

func (p *CallPolicy) validate() error {
	if p.Timeout < 0 {
		return fmt.Errorf("negative timeout")
	}
	g := &p.Guards
	if g.Bulkhead != nil {
		if err := g.Bulkhead.Validate(); err != nil {
			return err
		}
	}
	if g.Breaker != nil {
		if err := g.Breaker.Validate(); err != nil {
			return err
		}
	}
	if g.Budget != nil {
		if err := g.Budget.Validate(); err != nil {
			return err
		}
	}
	if f := g.Fallback; f != nil && (!f.Level.Degraded() || !(f.FailRate >= 0 && f.FailRate <= 1)) {
		return fmt.Errorf("fallback level must be stale, generic or empty and fail_rate in [0, 1]")
	}
	if g.Bulkhead != nil && g.BulkheadPool != nil {
		return fmt.Errorf("a call has one bulkhead: semaphore or pool")
	}
	if g.BulkheadPool != nil {
		if err := g.BulkheadPool.Validate(); err != nil {
			return err
		}
	}
	if g.RetryConcurrency != nil {
		if err := g.RetryConcurrency.Validate(); err != nil {
			return err
		}
		if g.Budget != nil {
			return fmt.Errorf("a call has one retry budget: tokens or concurrency")
		}
	}
	if p.Retry.MaxAttempts > 1 {
		if err := p.Retry.Validate(); err != nil {
			return err
		}
	}
	return nil
}

func (c *ClientConfig) validate(svcs map[string]int) error {
	if _, ok := svcs[c.Target]; !ok {
		return bad("client %q targets unknown service %q", c.Name, c.Target)
	}
	switch {
	case c.Users > 0:
		if c.Users > MaxUsers {
			return bad("client %q: users must be at most %d", c.Name, MaxUsers)
		}
	case len(c.Schedule) > 0:
		for i, p := range c.Schedule {
			if !(p.Rate >= 0) || p.Rate > MaxRate || (i == 0 && p.At != 0) || (i > 0 && p.At < c.Schedule[i-1].At) {
				return bad("client %q: schedule points need rates in [0, %g] and non-decreasing times starting at 0", c.Name, MaxRate)
			}
		}
	default:
		if !(c.Rate > 0) || c.Rate > MaxRate {
			return bad("client %q: rate must be in (0, %g] requests/s, got %v", c.Name, MaxRate, c.Rate)
		}
	}
	if err := c.Call.validate(); err != nil {
		return bad("client %q: %v", c.Name, err)
	}
	if c.Priority >= policies.NumPriorities {
		return bad("client %q: unknown priority", c.Name)
	}
	return nil
}

func (f *FaultConfig) validate(c *Config, svcs map[string]int, clients map[string]bool) error {
	if f.Start < 0 || (f.Kind != CacheFlushFault && f.End <= f.Start) {
		return bad("needs 0 <= start < end")
	}
	if f.Kind == LoadFault {
		if !clients[f.Target] {
			return bad("unknown client %q", f.Target)
		}
		if !(f.Multiply >= 0) || f.Multiply > 1e6 {
			return bad("multiply must be in [0, 1e6]")
		}
		return nil
	}
	i, ok := svcs[f.Target]
	if !ok {
		return bad("unknown service %q", f.Target)
	}
	s := &c.Services[i]
	if f.Instance >= max(s.Instances, 1) || f.Instance < -1 {
		return bad("instance %d out of range", f.Instance)
	}
	switch f.Kind {
	case LatencyFault:
		if !(f.Multiply >= 0) || f.Multiply > 1e6 || f.Add < 0 {
			return bad("multiply must be in [0, 1e6] and add >= 0")
		}
	case ErrorFault:
		if !(f.Rate >= 0 && f.Rate <= 1) {
			return bad("rate must be in [0, 1]")
		}
	case CrashFault, WorkersFault:
		if f.Count < 1 {
			return bad("count must be >= 1")
		}
	case FreezeFault, KillSwitchFault:
	case CacheFlushFault:
		if s.Cache == nil {
			return bad("service %q has no cache", f.Target)
		}
	default:
		return bad("unknown kind")
	}
	return nil
}

// checkCycles rejects call graphs with cycles (a service that calls
// itself, directly or not), which would recurse without end.
func (c *Config) checkCycles(svcs map[string]int) error {
	const (
		white = iota
		grey
		black
	)
	color := make([]int, len(c.Services))
	var path []string
	var visit func(i int) error
	visit = func(i int) error {
		color[i] = grey
		path = append(path, c.Services[i].Name)
		for _, st := range slices.Concat(c.Services[i].handlers()...) {
			for _, cc := range st.Calls {
				j := svcs[cc.Service]
				switch color[j] {
				case grey:
					return bad("call cycle: %v -> %s", path, cc.Service)
				case white:
					if err := visit(j); err != nil {
						return err
					}
				}
			}
		}
		path = path[:len(path)-1]
		color[i] = black
		return nil
	}
	for i := range c.Services {
		if color[i] == white {
			if err := visit(i); err != nil {
				return err
			}
		}
	}
	return nil
}

func (c *Config) interval() time.Duration {
	if c.Interval == 0 {
		return DefaultInterval
	}
	return c.Interval
}

package topology

import (
	"fmt"
	"github.com/ressim/ressim/sim/dist"
	"math"
	"time"

	"github.com/ressim/ressim/sim/engine"
	"github.com/ressim/ressim/sim/policies"
)

// service is a named set of identical instances behind a balancer.
type service struct {
	m        *Model
	cfg      *ServiceConfig
	rng      *dist.Source
	insts    []*instance
	only     *instance           // insts[0] when it is the only one, for pick; nil otherwise
	handlers map[string]*handler // by operation; "" is the default
	cache    *cache
	outlier  *watch // outlier detection, when configured
	watch    *watch // outlier detection and readiness probes, when configured
	rr       int    // round-robin position
	st       svcStats
	// expiry holds the deadline events of the requests queued at the
	// service's instances (watchExpiry), when deadlines propagate: they
	// mostly come in deadline order, which a lane keeps in O(1).
	expiry *engine.Lane
	// workers and queueCap are the workers (or async slots) and the queue
	// bound per instance, the file's until a timed action changes them
	// (action.go); queueCap < 0 is unbounded. Set queueCap with
	// setQueueCap.
	workers, queueCap int
	// fifoCap is the bound queueFull holds a FIFO queue to: queueCap, or
	// the largest int when the queue is unbounded or an adaptive LIFO
	// queue decides, so that the test asked on most arrivals in the
	// retry storm is one comparison where it was three (-6 M
	// instructions there, -3 M in mm10).
	fifoCap int
	// running is the number of instances in rotation: all of them until
	// an instances action takes some out (workers.go).
	running int
	// The provisioned capacity (workers times instances in rotation) as
	// actions set it, for the utilization: its area over the window until
	// provAt, and whether an action ever changed it (workers.go).
	provArea float64
	provAt   engine.Time
	provSet  bool
}

// handler is the code that serves one operation.
type handler struct {
	steps []Step
	sites []stepSite // the steps' calls, in step order
}

// stepSite ties a handler step's call to its call site.
type stepSite struct {
	step, call int
	site       *callSite
	critical   bool
	prob       float64
}

// instance is one copy of a service: a pool of workers (or async slots)
// and a FIFO queue (or adaptive LIFO's).
type instance struct {
	svc      *service
	idx      int
	capacity int // workers or slots, less any removed by a fault
	busy     int // requests holding a worker or slot
	queue    fifo
	running  []*attempt // requests in service, for crashes and branches; empty unless Model.tracksRunning
	out      outBits    // why callers' balancers skip it (down, parked, ...); 0: usable
	epoch    uint32     // bumped by each crash; work from an older epoch is lost

	outstanding int    // admitted or in transit, for the balancer
	arrivals    uint64 // attempts that reached the instance in the window

	adm         admission     // door and queue policies
	limitLogged int           // the concurrency limit last logged (events_hooks.go); 0 before the first
	active      []*fault      // active latency and error faults
	latMult     float64       // product of active latency faults' factors
	latAdd      time.Duration // sum of their additions
	errRate     float64       // combined probability of the active error faults
	sticky      []*fault      // active sticky faults, not in latMult, latAdd, errRate; empty without
	faulty      bool          // errRate > 0 or a sticky fault is active: complete asks faultError
	// shaped: a work step's drawn time may be changed here (latMult,
	// latAdd, a sticky fault, contention): advance asks stuck and
	// workTime only then (-14 M instructions in mm10). Set by newService
	// and activeFaults.
	shaped  bool
	freezes []span // stop-the-world pauses, sorted
}

// span is a time window [from, to).
type span struct{ from, to engine.Time }

func newService(m *Model, cfg *ServiceConfig) (*service, error) {
	s := &service{m: m, cfg: cfg, rng: m.source("service/" + cfg.Name)}
	n := max(cfg.Instances, 1)
	capacity := cfg.Workers
	if cfg.Mode == Async {
		capacity = cfg.MaxInFlight
	}
	s.workers, s.running = capacity, n
	s.setQueueCap(cfg.QueueCapacity)
	for i := 0; i < n; i++ {
		s.insts = append(s.insts, &instance{svc: s, idx: i, capacity: capacity, latMult: 1, shaped: cfg.Contention > 0})
	}
	if n == 1 {
		s.only = s.insts[0]
	}
	if m.propagate {
		var err error
		if s.expiry, err = m.sim.NewLane(0); err != nil {
			return nil, fmt.Errorf("topology: service %q: %w", cfg.Name, err)
		}
	}
	if cfg.Cache != nil {
		s.cache = newCache(m, s, cfg.Cache)
	}
	for _, in := range s.insts {
		if err := in.buildAdmission(&cfg.Admission, cfg.QueueCapacity); err != nil {
			return nil, fmt.Errorf("topology: service %q: %w", cfg.Name, err)
		}
	}
	if err := s.buildGuards(); err != nil {
		return nil, fmt.Errorf("topology: service %q: %w", cfg.Name, err)
	}
	s.syncWorkers(0)
	return s, nil
}

// setQueueCap sets the queue bound per instance (< 0: unbounded), and
// fifoCap with it.
func (s *service) setQueueCap(n int) {
	s.queueCap, s.fifoCap = n, n
	if n < 0 || s.cfg.Admission.LIFO != nil {
		s.fifoCap = math.MaxInt
	}
}

// capacity returns the service's configured workers (or slots) over all
// instances.
func (s *service) capacity() int {
	if s.cfg.Mode == Async {
		return s.cfg.MaxInFlight * len(s.insts)
	}
	return s.cfg.Workers * len(s.insts)
}

// refusesAtOnce reports whether an attempt arriving now would be refused
// at the door with no policy asked: the instance is up and admits without
// shedding or a concurrency limit, has no free worker with an empty
// queue, and its queue is full. arrive refuses exactly such an attempt (in
// its default case, reached without enqueue), its answer on the way for
// the current instant; send, foreseeing it, schedules no timeout for it,
// and checks after the delivery that arrive did refuse it.
//
// It is arrive's test written for a FIFO queue, the only kind queueFull
// finds full, so that it inlines: with no free worker or a queue that is
// not empty (a full queue is, unless its capacity is 0), the first case
// of arrive's switch does not start the attempt.
func (in *instance) refusesAtOnce() bool {
	n := in.queue.len()
	return in.queueFull() && (n > 0 || in.busy >= in.capacity) &&
		!in.down() && !in.adm.door
}

// arrive admits attempt a: to a free worker, into the queue, or rejected.
func (in *instance) arrive(now engine.Time, a *attempt) {
	s := in.svc
	m := s.m
	a.arrived = now
	a.measured = now >= m.warmup
	if a.tspan != 0 {
		m.trace.serverStart(a, in, now)
	}
	// s.st.inc(m, now, cOffered), with the warm-up test already made.
	s.st.iv[cOffered]++
	if a.measured {
		s.st.win[cOffered]++
		in.arrivals++
	}
	if in.down() {
		// Crashed while the request was in transit: the connection resets.
		s.st.inc(m, now, cKilled)
		in.leave(now, a, stError, policies.Error, "the instance is down: connection reset")
		return
	}
	if in.adm.door && !in.admit(now, a) {
		return
	}
	switch {
	case in.busy < in.capacity && in.queueLen() == 0:
		s.st.inc(m, now, cAdmitted)
		s.st.inSystem.Inc(int64(now))
		m.attemptTo(now, a, apAdmitted, "")
		in.start(now, a)
	case !in.queueFull() && in.enqueue(now, a):
		s.st.inc(m, now, cAdmitted)
		s.st.inSystem.Inc(int64(now))
		s.st.queue.Inc(int64(now))
	default:
		// in.leave, written out: in the retry storm more than half of the
		// attempts are refused here, and the call costs more than the
		// three lines (-16 M instructions there).
		// Of release, in phase apSending or apNetwork, only the count
		// is left without a span or a limit token (-20 M there).
		s.st.inc(m, now, cRejected)
		m.noteAttempt(now, a, "the queue is full")
		if a.tspan != 0 || a.holdsLim {
			in.release(now, a, policies.Rejected)
		} else {
			in.outstanding--
		}
		if m.sending > 0 && !a.site.hasNet && m.observe == nil {
			// respond, written out for an attempt refused while its
			// caller sends: the same event by the same call (-13 M in
			// the retry storm).
			a.status = stRejected
			m.attemptTo(now, a, apResponding, "")
			m.soon(&m.hResponse, a)
			return
		}
		m.respond(now, a, stRejected)
	}
}

// start gives a a worker and runs its handler; with deadline propagation
// a request whose deadline has passed is dropped instead.
func (in *instance) start(now engine.Time, a *attempt) {
	s := in.svc
	m := s.m
	if m.propagate && a.dl.Expired(now.Duration()) {
		if a.trace != 0 {
			m.trace.add(a.trace, "queue", fmt.Sprintf("queued at %s[%d], dropped: deadline passed", s.cfg.Name, in.idx), a.arrived, now, "")
		}
		s.st.inc(m, now, cDropped)
		in.leave(now, a, stDropped, policies.Rejected, "dropped: its deadline passed before a worker took it")
		return
	}
	// m.cancels first: one test in a model where no service cancels,
	// where most of the attempts a worker takes in the retry storm are
	// abandoned, so that the test of a.caller went on to the service's
	// configuration (-1.6 M instructions there).
	if m.cancels && a.caller == cvAbandoned && s.cfg.Cancellation != CancelNever {
		m.dropGone(now, a, "dropped at dequeue: its caller is gone")
		return
	}
	in.busy++
	s.st.busy.Inc(int64(now))
	m.attemptTo(now, a, apWorking, "took a worker")
	a.started = now
	if a.trace != 0 && now > a.arrived {
		m.trace.add(a.trace, "queue", fmt.Sprintf("queued at %s[%d]", s.cfg.Name, in.idx), a.arrived, now, "")
	}
	a.step = 0
	if a.measured {
		s.st.wait.Record(int64(now - a.arrived))
		if now > a.arrived {
			s.st.delayed++
		}
	}
	if m.tracksRunning {
		a.runIdx = len(in.running)
		in.running = append(in.running, a)
	}
	m.advance(now, a)
}

// startNext fills free workers from the queue.
func (in *instance) startNext(now engine.Time) {
	for in.busy < in.capacity && !in.down() {
		a := in.dequeue(now)
		if a == nil {
			return
		}
		in.start(now, a)
	}
}

// shape is the time of a's work step drawn as d, as the instance's
// latency faults, sticky faults and contention make it (stuck, workTime).
// It inlines: on an instance that does not shape work (in.shaped) it is
// d, exactly for d below 2^52 ns, where d+0.5 is exact in a float64.
func (in *instance) shape(a *attempt, d time.Duration) time.Duration {
	if in.shaped || uint64(d) >= 1<<52 {
		return in.shapeWork(a, d)
	}
	return d
}

// shapeWork is shape's out-of-line part.
func (in *instance) shapeWork(a *attempt, d time.Duration) time.Duration {
	return in.workTime(in.stuck(a, d))
}

// workTime is the duration of one local work step started now.
func (in *instance) workTime(d time.Duration) time.Duration {
	s := in.svc
	x := float64(d)
	if in.latMult != 1 {
		x *= in.latMult
	}
	if c := s.cfg.Contention; c > 0 {
		x *= 1 + c*float64(in.busy)
	}
	return time.Duration(x+0.5) + in.latAdd
}

// frozen returns how much of [from, to) falls inside a freeze.
func (in *instance) frozen(from, to engine.Time) time.Duration {
	var d time.Duration
	for _, f := range in.freezes {
		lo, hi := max(from, f.from), min(to, f.to)
		if hi > lo {
			d += hi.Sub(lo)
		}
	}
	return d
}

// thaw returns the first instant from t on that no freeze of in covers
// (freezes may overlap or follow each other: they are sorted by start, so
// one pass suffices).
func (in *instance) thaw(t engine.Time) engine.Time {
	for _, f := range in.freezes {
		if f.from <= t && t < f.to {
			t = f.to
		}
	}
	return t
}

// removeRunning forgets a, which no longer holds a worker.
func (in *instance) removeRunning(a *attempt) {
	i, last := a.runIdx, len(in.running)-1
	if i > last || in.running[i] != a {
		return // already forgotten by a crash
	}
	moved := in.running[last]
	in.running[i] = moved
	moved.runIdx = i
	in.running[last] = nil
	in.running = in.running[:last]
}

// orderedHandlers returns the service's handlers in declaration order: the
// default first, then the operations'.
func (s *service) orderedHandlers() []*handler {
	var hs []*handler
	if h, ok := s.handlers[""]; ok {
		hs = append(hs, h)
	}
	for _, op := range s.cfg.Operations {
		hs = append(hs, s.handlers[op.Name])
	}
	return hs
}

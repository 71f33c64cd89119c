package topology

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/engine"
)

// Model is a configured system ready to run once.
type Model struct {
	cfg       Config
	sim       *engine.Sim
	warmup    engine.Time
	end       engine.Time
	propagate bool
	// cancels: some service cancels work in flight (cancel.go), so an
	// abandoned attempt must be told to its callee.
	cancels bool
	// tracksRunning: the instances keep their lists of the requests
	// holding a worker (instance.running), which only a crash (a crash
	// fault, a liveness probe's restart) and a branch (redrawMemoryless)
	// read. Without either, start and release skip the list (-21 M
	// instructions in the retry storm, -36 M in mm10).
	tracksRunning bool
	// closedUsers numbers the closed-loop users, when the model has a
	// sticky fault (sticky.go).
	closedUsers uint32
	services    []*service
	byName      map[string]*service
	clients     []*client
	sites       []*callSite
	faults      []*fault
	actions     []*action      // timed actions (action.go)
	actionLog   []ActionResult // the actions that ran, in order
	pool        pools
	series      *seriesRecorder
	events      EventLog // state changes (events.go)
	trace       *tracer  // nil unless tracing
	ran         bool

	// Event handlers, one value per kind of event, so that scheduling
	// never allocates: the argument says which record the event is for.
	hArrive   arriveHandler
	hWork     workHandler
	hResponse responseHandler
	hTimeout  timeoutHandler
	hRetry    retryHandler
	hHedge    hedgeHandler
	hCache    cacheHandler
	hDeadline deadlineHandler
	hFail     failHandler
	hFallback fallbackHandler
	hSlotWait slotWaitHandler
	hExpire   expireHandler

	// inFlight counts the user requests sent and not yet answered, over
	// all clients; live lists them, so that those still in flight at the
	// end enter the outcome latency with their age.
	inFlight int64
	peak     int64 // the largest inFlight after the warm-up
	live     userList

	// sending > 0 while a call is being sent: a response produced then is
	// delivered by an event, never re-entering the sender.
	sending int

	progress func(now, end time.Duration) // see OnProgress
	watch    func(IntervalState) bool     // see OnInterval

	guard    Guard // see SetGuard; nil: unbounded
	guardErr error // what the guard stopped the run with

	// observe, when set (by tests, with setObserver), is told of every
	// step of every request's life (lifecycle.go). It is nil in
	// production, where it costs one comparison per note.
	observe func(transition)
	// attemptLegal and callLegal are the move tables attemptTo and callTo
	// look a move up in (lifecycle.go): the package's, or with an
	// observer, none, which sends every move out of line to be checked
	// and observed. So a move costs one lookup, not a lookup and a test of
	// observe.
	attemptLegal, callLegal moveSets
}

// OnProgress makes the run call f after every time-series interval, with
// the simulated time reached and the run's end; ressim run draws its
// progress bar with it. f must not touch the model.
func (m *Model) OnProgress(f func(now, end time.Duration)) { m.progress = f }

// IntervalState is what OnInterval sees at an interval's end.
type IntervalState struct {
	// Now is the interval's end.
	Now time.Duration
	// InFlight is the user requests sent and not yet answered, as the
	// in-flight series records it.
	InFlight int64
	// Backlog is the attempts in every service's instances, busy or
	// queued, now.
	Backlog int64
	// Sent is the user requests sent in the interval, Good the full
	// answers within the deadline in it (goodput's count).
	Sent, Good uint64
}

// OnInterval makes Run call f at every interval's end; f returning true
// stops the run there, and Run returns the result so far. f must not
// touch the model. Call it before Run.
func (m *Model) OnInterval(f func(IntervalState) bool) { m.watch = f }

// backlog is the attempts in every service's instances, busy or queued.
func (m *Model) backlog() int64 {
	n := 0
	for _, s := range m.services {
		for _, in := range s.insts {
			n += in.busy + in.queueLen()
		}
	}
	return int64(n)
}

// BranchAt makes the run reseed every random stream at simulated time at
// as if its seed were seed from then on (engine.Sim.Branch): the state
// reached by at is the original seed's, the future the new seed's. The
// branch fires before any other event at the same instant scheduled
// later, and after those scheduled earlier. Pending delays whose law is
// memoryless are drawn again from the new streams (redrawMemoryless), so
// that branches differ from the branch on. Call it before Run.
func (m *Model) BranchAt(at time.Duration, seed uint64) {
	m.tracksRunning = true
	m.at(engine.Time(at), engine.HandlerFunc(func(now engine.Time, _ any) {
		m.sim.Branch(seed)
		m.redrawMemoryless(now)
	}), nil)
}

// RecordHistogramSeries makes Run record each client's latency and each
// service's sojourn histogram per interval, at LatencyBucketBounds, in
// Result.Histograms: what the OpenMetrics export writes as Prometheus
// histograms. Off by default, since nothing else reads them and they take
// (bounds + 1) words per interval and entity. Call it before Run.
func (m *Model) RecordHistogramSeries() { m.series.hists = true }

// New validates cfg and builds the model. The run's random streams derive
// from cfg.Seed.
func New(cfg Config) (*Model, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	m := &Model{
		cfg:       cfg,
		sim:       engine.New(cfg.Seed),
		warmup:    engine.Time(cfg.Warmup),
		end:       engine.Time(cfg.Duration),
		propagate: cfg.PropagateDeadlines,
		byName:    map[string]*service{},
	}
	m.setObserver(nil)
	m.hArrive.m, m.hWork.m, m.hResponse.m, m.hTimeout.m = m, m, m, m
	m.hRetry.m, m.hCache.m, m.hDeadline.m, m.hFail.m = m, m, m, m
	m.hFallback.m, m.hSlotWait.m, m.hExpire.m, m.hHedge.m = m, m, m, m
	if cfg.Trace.Every > 0 {
		m.trace = &tracer{cfg: cfg.Trace}
	}
	for i := range cfg.Services {
		s, err := newService(m, &cfg.Services[i])
		if err != nil {
			return nil, err
		}
		m.addService(s)
	}
	// Handlers first, then their call sites (which resolve the callee's
	// handler), in declaration order: services' calls, then clients'.
	for _, s := range m.services {
		s.handlers = map[string]*handler{}
		if len(s.cfg.Steps) > 0 {
			s.handlers[""] = &handler{steps: s.cfg.Steps}
		}
		for _, op := range s.cfg.Operations {
			s.handlers[op.Name] = &handler{steps: op.Steps}
		}
	}
	for _, s := range m.services {
		for _, h := range s.orderedHandlers() {
			if err := m.buildSites(s, h); err != nil {
				return nil, err
			}
		}
	}
	for i := range cfg.Clients {
		c, err := newClient(m, &cfg.Clients[i])
		if err != nil {
			return nil, err
		}
		m.clients = append(m.clients, c)
	}
	if err := m.buildFaultsAndActions(); err != nil {
		return nil, err
	}
	var err error
	if m.series, err = newSeriesRecorder(m, cfg.interval()); err != nil {
		return nil, fmt.Errorf("topology: time series: %w", err)
	}
	return m, nil
}

// buildFaultsAndActions builds the faults and the timed actions.
func (m *Model) buildFaultsAndActions() error {
	for i := range m.cfg.Faults {
		m.faults = append(m.faults, newFault(m, i, &m.cfg.Faults[i]))
		m.tracksRunning = m.tracksRunning || m.cfg.Faults[i].Kind == CrashFault
	}
	return m.buildActions()
}

// addService adds a built service to the model.
func (m *Model) addService(s *service) {
	m.services = append(m.services, s)
	m.byName[s.cfg.Name] = s
	m.cancels = m.cancels || s.cfg.Cancellation != CancelNever
	m.tracksRunning = m.tracksRunning || s.cfg.Guards.Liveness != nil
}

// buildSites creates the call sites of a handler's calls.
func (m *Model) buildSites(s *service, h *handler) error {
	steps := h.steps
	for i := range steps {
		for j := range steps[i].Calls {
			cc := &steps[i].Calls[j]
			site, err := m.newSite(s.cfg.Name, cc.Service, cc.Operation, cc.Policy)
			if err != nil {
				return err
			}
			h.sites = append(h.sites, stepSite{step: i, call: j, site: site, critical: cc.Critical, prob: cc.Probability})
		}
	}
	return nil
}

// Run simulates the configured duration and returns the results. A Model
// runs once; a second call returns an error.
func (m *Model) Run() (*Result, error) {
	if m.ran {
		return nil, fmt.Errorf("topology: model %q already ran", m.cfg.Name)
	}
	m.ran = true
	m.events.Cap = m.cfg.eventLogCap()
	for _, f := range m.faults {
		f.schedule()
	}
	m.scheduleActions()
	for _, s := range m.services {
		s.startWatch()
	}
	for _, c := range m.clients {
		c.start()
	}
	if m.warmup > 0 {
		m.at(m.warmup, engine.HandlerFunc(m.endWarmup), nil)
	}
	m.series.start()
	m.installGuard()
	m.sim.RunUntil(m.end)
	if m.guardErr != nil {
		return nil, fmt.Errorf("topology: %s stopped at %v of %v simulated: %w", m.cfg.Name, m.sim.Now(), m.cfg.Duration, m.guardErr)
	}
	if m.series.err != nil {
		return nil, fmt.Errorf("topology: time series: %w", m.series.err)
	}
	return m.result(), nil
}

// endWarmup opens the measurement window.
func (m *Model) endWarmup(now engine.Time, _ any) {
	for _, s := range m.services {
		s.st.warmArea = s.st.areas(now)
	}
}

// window returns the measurement window's length.
func (m *Model) window() time.Duration { return m.end.Sub(m.warmup) }

// Events returns the number of events the run fired.
func (m *Model) Events() uint64 { return m.sim.Fired() }

// The event handlers. Each is a small value holding the model, so that an
// event costs no allocation.
type (
	arriveHandler   struct{ m *Model }
	workHandler     struct{ m *Model }
	responseHandler struct{ m *Model }
	timeoutHandler  struct{ m *Model }
	retryHandler    struct{ m *Model }
	hedgeHandler    struct{ m *Model }
	cacheHandler    struct{ m *Model }
	deadlineHandler struct{ m *Model }
)

func (h *arriveHandler) Handle(now engine.Time, arg any) {
	a := arg.(*attempt)
	a.inst.arrive(now, a)
}

func (h *retryHandler) Handle(now engine.Time, arg any) {
	c := arg.(*call)
	c.retryEv = 0
	h.m.dispatch(now, c)
}

func (h *cacheHandler) Handle(now engine.Time, arg any) { h.m.cacheLookupDone(now, arg.(*call)) }

func (h *deadlineHandler) Handle(now engine.Time, arg any) { h.m.userExpired(now, arg.(*userReq)) }

package topology

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/ressim/ressim/sim/engine"
	"github.com/ressim/ressim/sim/policies/retry"
)

// EventAction: a timed action ran (ActionConfig). Subject is what it
// changed ("client.users.retry.attempts", "kill_switch api"); From and To
// are the old and new values ("3" and "1", "off" and "on"); Detail is
// the action's label.
const EventAction EventKind = "action"

// ActionResult is one action as it ran: its instant, kind, subject and
// label, and the values before and after.
type ActionResult struct {
	At       time.Duration
	Kind     string
	Subject  string
	Label    string
	From, To string
}

// action is a timed action at run time.
type action struct {
	m      *Model
	cfg    *ActionConfig
	site   *callSite   // ActionRetryAttempts
	client *client     // ActionClientRate, ActionShed
	svc    *service    // ActionWorkers, ActionQueueCapacity, ActionInstances
	sites  []*callSite // ActionForceBreaker: the calls whose breakers it forces
	res    ActionResult
}

// buildActions resolves the configured actions' targets. It runs after
// the sites and clients are built and before the series recorder, so that
// a call whose retries an action changes has its retry columns.
func (m *Model) buildActions() error {
	for i := range m.cfg.Actions {
		c := &m.cfg.Actions[i]
		a := &action{m: m, cfg: c}
		switch c.Kind {
		case ActionRetryAttempts:
			site := m.siteOf(c.Call)
			if site == nil {
				return fmt.Errorf("topology: action %d: no call site %s", i, c.Call)
			}
			if site.retry == nil {
				// Retries turned off in the file (1 attempt): build the
				// policy the action will change, allowing 1 attempt.
				p, err := retry.New(site.retryConfig(1))
				if err != nil {
					return fmt.Errorf("topology: action %d: %w", i, err)
				}
				site.retry = p
				site.finish()
			}
			a.site = site
		case ActionClientRate, ActionShed:
			for _, cl := range m.clients {
				if cl.cfg.Name == c.Client {
					a.client = cl
				}
			}
			if c.Kind == ActionShed && a.client.shedRng == nil {
				a.client.shedRng = m.sim.Stream("action/shed/" + c.Client)
			}
		case ActionWorkers, ActionQueueCapacity, ActionInstances:
			a.svc = m.byName[c.Service]
		case ActionForceBreaker:
			for _, s := range m.sites {
				if s.callee == c.Service && (c.Caller == "" || s.caller == c.Caller) && s.guards.breaker != nil {
					a.sites = append(a.sites, s)
				}
			}
			if len(a.sites) == 0 {
				return fmt.Errorf("topology: action %d: %s: no call has a breaker", i, c.subject())
			}
		}
		m.actions = append(m.actions, a)
	}
	return nil
}

// siteOf returns the call site r names, or nil.
func (m *Model) siteOf(r CallRef) *callSite {
	if r.Client != "" {
		for _, c := range m.clients {
			if c.cfg.Name == r.Client {
				return c.site
			}
		}
		return nil
	}
	s := m.byName[r.Service]
	if s == nil {
		return nil
	}
	h := s.handlers[r.Operation]
	if h == nil {
		return nil
	}
	for _, ss := range h.sites {
		if ss.step == r.Step && ss.call == r.Call {
			return ss.site
		}
	}
	return nil
}

// retryConfig is the site's retry configuration with attempts attempts:
// the file's, or the defaults for a call written without retry.
func (s *callSite) retryConfig(attempts int) retry.Config {
	rc := s.retryCfg
	if rc.RetryOn == 0 {
		d := retry.DefaultConfig()
		d.AttemptTimeout = rc.AttemptTimeout
		rc = d
	}
	rc.MaxAttempts = attempts
	return rc
}

// scheduleActions puts every action in the event queue. They are
// scheduled after the faults, so an action at a fault's start or end runs
// after it.
func (m *Model) scheduleActions() {
	for _, a := range m.actions {
		m.at(engine.Time(a.cfg.At), engine.HandlerFunc(a.run), nil)
	}
}

// run applies the action at now and logs it.
func (a *action) run(now engine.Time, _ any) {
	m := a.m
	c := a.cfg
	var from, to string
	switch c.Kind {
	case ActionRetryAttempts:
		old := a.site.retry.Config().MaxAttempts
		p, err := retry.New(a.site.retryConfig(c.Int))
		if err != nil {
			panic(fmt.Sprintf("topology: action %s: %v", c.subject(), err)) // Validate checked the range
		}
		a.site.retry = p
		from, to = strconv.Itoa(old), strconv.Itoa(c.Int)
	case ActionClientRate:
		// The rate function has had the change since the start
		// (rateSegments); the action only logs it.
		from = strconv.FormatFloat(a.client.rate, 'g', -1, 64)
		a.client.rate = c.Value
		to = strconv.FormatFloat(c.Value, 'g', -1, 64)
	case ActionWorkers, ActionInstances, ActionForceBreaker:
		from, to = a.runService(now)
	case ActionQueueCapacity:
		s := a.svc
		from = "unbounded"
		if s.queueCap >= 0 {
			from = strconv.Itoa(s.queueCap)
		}
		s.setQueueCap(c.Int)
		to = strconv.Itoa(c.Int)
	case ActionKillSwitch:
		from, to = "off", "on"
		if !c.On {
			from, to = "on", "off"
		}
		m.killSwitch(now, c.Service, c.Caller, c.On, c.ReportLabel())
	case ActionShed:
		from = strconv.FormatFloat(a.client.shed, 'g', -1, 64)
		a.client.shed = c.Value
		to = strconv.FormatFloat(c.Value, 'g', -1, 64)
	}
	a.res = ActionResult{At: c.At, Kind: c.Kind.String(), Subject: c.subject(), Label: c.ReportLabel(), From: from, To: to}
	m.actionLog = append(m.actionLog, a.res)
	m.logEvent(now.Duration(), EventAction, a.res.Subject, from, to, a.res.Label)
}

// runService applies a workers, instances or force_breaker action at now
// and returns the old and new values.
func (a *action) runService(now engine.Time) (from, to string) {
	c := a.cfg
	switch c.Kind {
	case ActionWorkers:
		s := a.svc
		from, to = strconv.Itoa(s.workers), strconv.Itoa(c.Int)
		d := c.Int - s.workers
		s.provision(now)
		s.workers = c.Int
		for _, in := range s.insts {
			in.capacity += d
			if d > 0 {
				in.startNext(now)
			}
		}
		s.syncWorkers(now)
	case ActionInstances:
		s := a.svc
		from, to = strconv.Itoa(s.running), strconv.Itoa(c.Int)
		s.setRunning(now, c.Int)
	case ActionForceBreaker:
		from, to = a.sites[0].guards.breaker.Mode().String(), c.Breaker.String()
		for _, site := range a.sites {
			a.m.breakerSync(now, site)
			if tr, moved := site.guards.breaker.Force(now.Duration(), c.Breaker); moved {
				a.m.logBreaker(now.Duration(), site, tr)
			}
		}
	}
	return from, to
}

// rateActions returns the client's rate changes as schedule points, in
// the order of their instants (the configuration's order at the same
// instant), after the file's rate at 0.
func rateActions(cfg *ClientConfig, actions []ActionConfig) []RatePoint {
	var pts []RatePoint
	for _, a := range actions {
		if a.Kind == ActionClientRate && a.Client == cfg.Name {
			pts = append(pts, RatePoint{At: a.At, Rate: a.Value})
		}
	}
	if len(pts) == 0 {
		return nil
	}
	pts = append([]RatePoint{{At: 0, Rate: cfg.Rate}}, pts...)
	slices.SortStableFunc(pts, func(a, b RatePoint) int { return cmp.Compare(a.At, b.At) })
	return pts
}

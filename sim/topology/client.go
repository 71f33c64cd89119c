package topology

import (
	"github.com/ressim/ressim/sim/policies/deadline"
	"math/rand/v2"
	"slices"

	"github.com/ressim/ressim/sim/dist"
	"github.com/ressim/ressim/sim/engine"
)

// client sends end-user requests: open-loop with a rate function, or
// closed-loop with a population of users.
type client struct {
	m    *Model
	cfg  *ClientConfig
	site *callSite
	rng  *dist.Source

	segs    []rateSeg      // open loop: the rate over time
	seg     int            // segment of the next arrival
	meanGap float64        // ns between arrivals, for a constant rate
	steady  bool           // one segment of constant, positive rate: nextArrival's fast path
	arrEv   engine.EventID // the next open-loop arrival (branch.go redraws it)

	dlLane *engine.Lane // the deadline timers, when the patience is constant
	// hasDeadline is cfg.Deadline.Kind() != 0, kept: asking the Dist on
	// every request copied it (88 bytes) first.
	hasDeadline bool
	think       thinkHandler
	st          clStats

	// With a sticky fault in the model (sticky.go): the stream of the
	// requests' identities, and the closed-loop users' userIDs.
	idRng *rand.Rand
	ids   []uint32

	// Timed actions (action.go): the base rate as last set, and the share
	// of new requests shed at the client with the stream that draws it
	// (nil without a shed action).
	rate    float64
	shed    float64
	shedRng *rand.Rand
}

// rateSeg is a piece of a client's rate function: over [from, to) the rate
// goes linearly from r0 to r1 (requests per second).
type rateSeg struct {
	from, to engine.Time
	r0, r1   float64
}

func newClient(m *Model, cfg *ClientConfig) (*client, error) {
	site, err := m.newSite("client:"+cfg.Name, cfg.Target, cfg.Operation, cfg.Call)
	if err != nil {
		return nil, err
	}
	c := &client{m: m, cfg: cfg, site: site, rng: m.source("client/" + cfg.Name), rate: cfg.Rate}
	c.think.c = c
	c.hasDeadline = cfg.Deadline.Kind() != 0
	if cfg.Deadline.Kind() == dist.Constant && cfg.Deadline.Mean() > 0 {
		if c.dlLane, err = m.sim.NewLane(cfg.Deadline.Mean()); err != nil {
			return nil, err
		}
	}
	if hasSticky(m.cfg.Faults) {
		c.idRng = m.sim.Stream("sticky/" + cfg.Name)
		c.ids = make([]uint32, cfg.Users)
		for i := range c.ids {
			c.ids[i] = closedUser | m.closedUsers
			m.closedUsers++
		}
	}
	if cfg.Users == 0 {
		c.segs = rateSegments(cfg, m.cfg.Faults, m.cfg.Actions)
		if r := c.segs[0].r0; r > 0 {
			c.meanGap = 1e9 / r
		}
		c.steady = len(c.segs) == 1 && c.segs[0].r0 == c.segs[0].r1 && c.segs[0].r0 > 0
	}
	return c, nil
}

// rateSegments builds the client's rate function: its schedule (or
// constant rate) times the load faults that target it.
func rateSegments(cfg *ClientConfig, faults []FaultConfig, actions []ActionConfig) []rateSeg {
	pts := cfg.Schedule
	if len(pts) == 0 {
		pts = rateActions(cfg, actions)
	}
	if len(pts) == 0 {
		pts = []RatePoint{{At: 0, Rate: cfg.Rate}}
	}
	var cuts []engine.Time
	for _, p := range pts {
		cuts = append(cuts, engine.Time(p.At))
	}
	var mine []FaultConfig
	for _, f := range faults {
		if f.Kind == LoadFault && f.Target == cfg.Name {
			mine = append(mine, f)
			cuts = append(cuts, engine.Time(f.Start), engine.Time(f.End))
		}
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	var segs []rateSeg
	for i, from := range cuts {
		to := engine.MaxTime
		if i+1 < len(cuts) {
			to = cuts[i+1]
		}
		k := loadMultiplier(mine, from)
		r0 := scheduleRate(cfg, pts, from, false) * k
		r1 := r0
		if cfg.Linear && to != engine.MaxTime {
			r1 = scheduleRate(cfg, pts, to, true) * k
		}
		segs = append(segs, rateSeg{from: from, to: to, r0: r0, r1: r1})
	}
	return segs
}

// scheduleRate is the schedule pts's rate at t (its limit from the left
// if left), stepwise or, with cfg.Linear, interpolated between points.
func scheduleRate(cfg *ClientConfig, pts []RatePoint, t engine.Time, left bool) float64 {
	i := 0
	for i+1 < len(pts) && (engine.Time(pts[i+1].At) < t || (!left && engine.Time(pts[i+1].At) == t)) {
		i++
	}
	p := pts[i]
	if !cfg.Linear || i+1 >= len(pts) {
		return p.Rate
	}
	q := pts[i+1]
	span := float64(q.At - p.At)
	if span <= 0 {
		return q.Rate
	}
	x := float64(t.Sub(engine.Time(p.At))) / span
	return p.Rate + (q.Rate-p.Rate)*x
}

// loadMultiplier is the product of the load faults active at t.
func loadMultiplier(faults []FaultConfig, t engine.Time) float64 {
	k := 1.0
	for _, f := range faults {
		if engine.Time(f.Start) <= t && t < engine.Time(f.End) {
			k *= f.Multiply
		}
	}
	return k
}

func (c *client) start() {
	if c.cfg.Users > 0 {
		for i := 0; i < c.cfg.Users; i++ {
			c.m.after(c.cfg.ThinkTime.DrawFrom(c.rng), &c.think, c.userSlot(uint32(i)))
		}
		return
	}
	if t, ok := c.nextArrival(0); ok {
		c.arrEv = c.m.at(t, c, nil)
	}
}

// nextArrival returns the first arrival after t of the Poisson process with
// the client's rate function, by thinning (Lewis and Shedler 1979) within
// each segment, against the segment's peak rate; crossing a segment's end
// restarts the draw there, which memorylessness makes exact.
func (c *client) nextArrival(t engine.Time) (engine.Time, bool) {
	if c.steady {
		// A constant rate: the usual case, without the thinning loop.
		return c.steadyArrival(t), true
	}
	for c.seg < len(c.segs) {
		s := &c.segs[c.seg]
		if t < s.from {
			t = s.from
		}
		peak := max(s.r0, s.r1)
		if peak <= 0 {
			t = s.to
			c.seg++
			continue
		}
		gap := c.rng.ExpFloat64() / peak * 1e9
		if gap >= float64(s.to-t) {
			t = s.to
			c.seg++
			continue
		}
		t += engine.Time(gap + 0.5)
		if s.r0 == s.r1 {
			return t, true
		}
		x := float64(t-s.from) / float64(s.to-s.from)
		if c.rng.Float64()*peak < s.r0+(s.r1-s.r0)*x {
			return t, true
		}
	}
	return 0, false
}

// steadyArrival is nextArrival at a constant rate (c.steady): the next
// arrival of a Poisson process after t. It inlines.
func (c *client) steadyArrival(t engine.Time) engine.Time {
	return t + engine.Time(c.rng.ExpFloat64()*c.meanGap+0.5)
}

// Handle is an open-loop arrival: send one request, schedule the next.
// At a constant rate the next arrival is drawn here, steadyArrival
// written out: profile-guided optimisation inlines the exponential draw
// (too big for the usual budget) only where its call is written in the
// function compiled, and inlined from steadyArrival it stayed a call.
// nextArrival, with its thinning loop, does not inline.
func (c *client) Handle(now engine.Time, _ any) {
	if c.steady {
		// m.at written out too, for the same reason: PGO then inlines
		// the engine's At, one call fewer per arrival.
		id, err := c.m.sim.At(now+engine.Time(c.rng.ExpFloat64()*c.meanGap+0.5), c, nil)
		if err != nil {
			panic(err)
		}
		c.arrEv = id
	} else if t, ok := c.nextArrival(now); ok {
		c.arrEv = c.m.at(t, c, nil)
	}
	c.send(now, nil)
}

// thinkHandler ends a closed-loop user's think time.
type thinkHandler struct{ c *client }

// Its argument is the user's *uint32 userID when the model has a sticky
// fault (client.userSlot), nil otherwise.
func (h *thinkHandler) Handle(now engine.Time, user any) {
	id, _ := user.(*uint32)
	h.c.send(now, id)
}

// send starts one user request; user is the closed-loop user's userID,
// or nil.
func (c *client) send(now engine.Time, user *uint32) {
	m := c.m
	u := m.pool.user()
	u.client, u.sent = c, now
	if c.idRng != nil {
		c.identify(u, user)
	}
	measured := now >= m.warmup
	u.measured = measured
	if m.trace != nil {
		if u.trace = m.trace.sample(c.cfg.Name); u.trace != 0 {
			m.trace.rootStart(u, c, now)
		}
	}
	if m.observe != nil {
		m.note(now, u.trace, "request from "+c.cfg.Name, "sent")
	}
	// c.st.inc(m, now, kSent), with the warm-up test made once (-1 M in mm10).
	c.st.iv[kSent]++
	c.st.inFlight++
	m.inFlight++
	m.live.push(u)
	if measured {
		c.st.win[kSent]++
		c.st.peak = max(c.st.peak, c.st.inFlight)
		m.peak = max(m.peak, m.inFlight)
	}
	if c.shed > 0 && c.shedRng.Float64() < c.shed {
		// Shed at the client by a timed action: refused before sending.
		m.userAnswered(now, u, stRejected)
		return
	}
	if c.hasDeadline {
		if c.dlLane != nil {
			u.dl = deadline.After(now.Duration(), c.dlLane.Delay())
			u.deadlineEv = c.dlLane.Schedule(&m.hDeadline, u)
		} else {
			d := c.cfg.Deadline.DrawFrom(c.rng)
			u.dl = deadline.After(now.Duration(), d)
			u.deadlineEv = m.after(d, &m.hDeadline, u)
		}
	}
	u.call = m.startCall(now, c.site, nil, u, true)
}

// userAnswered records the answer to a user request.
func (m *Model) userAnswered(now engine.Time, u *userReq, st status) {
	c := u.client
	if u.trace != 0 {
		m.trace.add(u.trace, "request", "request from "+c.cfg.Name, u.sent, now, "answer: "+st.String())
		m.trace.end(m.trace.root(u.trace), now, st != stOK && st != stDegraded, "answer: "+st.String())
	}
	if m.observe != nil {
		m.note(now, u.trace, "request from "+c.cfg.Name, "answered: "+st.String())
	}
	if u.deadlineEv != 0 {
		m.sim.Cancel(u.deadlineEv)
	}
	switch st {
	case stOK, stDegraded:
		lat := int64(now - u.sent)
		c.st.ivLatency.of(u.measured).Record(lat)
		switch {
		case u.late(now):
			c.st.inc(m, now, kLate)
		case st == stOK:
			c.st.inc(m, now, kGood)
			if u.measured {
				c.st.cohortGood++
			}
		default:
			c.st.inc(m, now, kDegraded)
		}
	case stRejected:
		c.st.inc(m, now, kRejected)
		c.failed(now, u)
	case stDropped:
		c.st.inc(m, now, kDropped)
		c.failed(now, u)
	default:
		c.st.inc(m, now, kError)
		c.failed(now, u)
	}
	c.done(now, u)
}

// failed records the latency to the outcome of a request that got no
// answer.
func (c *client) failed(now engine.Time, u *userReq) {
	lat := int64(now - u.sent)
	c.st.ivFailed.of(u.measured).Record(lat)
}

// late reports whether u's answer came after its deadline.
func (u *userReq) late(now engine.Time) bool {
	at, ok := u.dl.Expiry()
	return ok && now.Duration() > at
}

// userExpired: the user's patience ran out before an answer came.
func (m *Model) userExpired(now engine.Time, u *userReq) {
	u.deadlineEv = 0
	c := u.client
	if u.trace != 0 {
		m.trace.add(u.trace, "request", "request from "+c.cfg.Name, u.sent, now, "the user gave up at the deadline")
		m.trace.end(m.trace.root(u.trace), now, true, "the user gave up at the deadline")
	}
	if m.observe != nil {
		m.note(now, u.trace, "request from "+c.cfg.Name, "the user gave up at the deadline")
	}
	c.st.inc(m, now, kExpired)
	c.failed(now, u)
	m.abandonCall(now, u.call)
	c.done(now, u)
}

func (c *client) done(now engine.Time, u *userReq) {
	m := c.m
	c.st.inFlight--
	m.inFlight--
	m.live.remove(u)
	if c.cfg.Users > 0 {
		// The same user thinks, then sends again.
		var user *uint32
		if c.ids != nil {
			user = &c.ids[u.userID-c.ids[0]]
		}
		c.m.after(c.cfg.ThinkTime.DrawFrom(c.rng), &c.think, user)
	}
	m.pool.putUser(u)
}

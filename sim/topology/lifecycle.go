package topology

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/engine"
	"github.com/ressim/ressim/sim/policies"
)

// A request's life is told by two small state machines, one per record:
// a call (a caller's logical call, with its retries) and an attempt (one
// try of it, and its execution at the callee). Every change of phase goes
// through callTo or attemptTo, which check it against the tables below and
// panic on an impossible one (in the style of etcd raft's step: one place
// that knows the legal moves), and tell the model's observer, if any.
//
// What a phase holds is given back in one place per record: releaseCall
// for a call's guards (bulkhead slot or ticket, breaker permit, retry
// budget, timers), instance.release for what an attempt holds at its
// instance (queue place, worker, concurrency-limit token, outstanding
// count).

// attemptPhase is where an attempt is, as its callee sees it.
type attemptPhase uint8

const (
	apNew        attemptPhase = iota // just taken from the pool
	apSending                        // the caller is choosing an instance
	apNetwork                        // in transit to the instance
	apQueued                         // waiting in the instance's queue
	apExpired                        // still queued (AtDequeue), its deadline passed
	apAdmitted                       // admitted, about to take a worker
	apWorking                        // holds a worker, doing local work
	apCalling                        // holds a worker, waiting for downstream calls
	apOrphaned                       // its instance crashed while its calls were out
	apResponding                     // answered; the answer is on its way back
	apDone                           // the answer reached the caller, or was discarded
	apCancelled                      // its handler stopped for a cancellation (cancel.go); it sends nothing back, or dropped if its caller still waits
	numAttemptPhases
)

var attemptPhaseNames = [numAttemptPhases]string{"new", "sending", "network", "queued", "expired", "admitted", "working", "calling", "orphaned", "responding", "done", "cancelled"}

func (p attemptPhase) String() string { return attemptPhaseNames[p] }

// attemptMoves[p] is the set of phases an attempt may go to from p.
var attemptMoves = [numAttemptPhases]uint16{
	apNew:        1 << apSending,
	apSending:    1<<apNetwork | 1<<apQueued | 1<<apAdmitted | 1<<apResponding,
	apNetwork:    1<<apQueued | 1<<apAdmitted | 1<<apResponding,
	apQueued:     1<<apExpired | 1<<apAdmitted | 1<<apResponding | 1<<apCancelled,
	apExpired:    1<<apAdmitted | 1<<apResponding | 1<<apCancelled,
	apAdmitted:   1<<apWorking | 1<<apCalling | 1<<apResponding | 1<<apCancelled,
	apWorking:    1<<apWorking | 1<<apCalling | 1<<apResponding | 1<<apCancelled,
	apCalling:    1<<apWorking | 1<<apCalling | 1<<apResponding | 1<<apOrphaned | 1<<apCancelled,
	apOrphaned:   1 << apResponding,
	apResponding: 1 << apDone,
	apCancelled:  1<<apResponding | 1<<apDone,
}

// callerView is whether the caller still waits for an attempt.
type callerView uint8

const (
	cvWaiting   callerView = iota // the caller waits for the answer
	cvAnswered                    // the caller got the answer
	cvAbandoned                   // the caller stopped waiting (timeout, or its owner gave up); work done for it is wasted
)

// callPhase is where a logical call is.
type callPhase uint8

const (
	cpNew        callPhase = iota // just taken from the pool
	cpWaitSlot                    // waits for a bulkhead slot
	cpLookup                      // looking up the target's cache
	cpAttempting                  // an attempt is out
	cpBackoff                     // waits to retry
	cpRefused                     // a guard refused it; the refusal is reported by an event
	cpFallback                    // the fallback answers, after its latency
	cpDone                        // the owner has the result, or gave up
	numCallPhases
)

var callPhaseNames = [numCallPhases]string{"new", "waiting for a bulkhead slot", "cache lookup", "attempting", "backing off", "refused", "fallback", "done"}

func (p callPhase) String() string { return callPhaseNames[p] }

// callMoves[p] is the set of phases a call may go to from p. Any phase
// before done may go to done: the owner gives up (abandonCall), or the call
// finishes.
var callMoves = [numCallPhases]uint16{
	cpNew:        1<<cpWaitSlot | 1<<cpLookup | 1<<cpAttempting | 1<<cpRefused | 1<<cpDone,
	cpWaitSlot:   1<<cpLookup | 1<<cpAttempting | 1<<cpRefused | 1<<cpDone,
	cpLookup:     1<<cpAttempting | 1<<cpRefused | 1<<cpDone,
	cpAttempting: 1<<cpAttempting | 1<<cpBackoff | 1<<cpFallback | 1<<cpDone, // a hedged call sends copies while attempting
	cpBackoff:    1<<cpLookup | 1<<cpAttempting | 1<<cpRefused | 1<<cpDone,
	cpRefused:    1<<cpBackoff | 1<<cpFallback | 1<<cpDone,
	cpFallback:   1 << cpDone,
}

// moveSets is a move table as a model holds it (Model.attemptLegal): the
// set of phases reachable from each value of a phase's byte (the rows past
// the last phase are empty), so that the lookup needs no bounds check. It
// is a value in the model, not a pointer to a shared matrix: a move with a
// constant target is then one load and one bit test off the model
// (three instructions, not seven, on each of some eight moves a request).
type moveSets = [256]uint16

// setObserver sets the model's observer (nil: none) and the move tables
// that go with it (Model.attemptLegal): the package's, or with an
// observer none, so that every move goes out of line to be checked and
// observed.
func (m *Model) setObserver(f func(transition)) {
	m.observe = f
	m.attemptLegal, m.callLegal = moveSets{}, moveSets{}
	if f == nil {
		copy(m.attemptLegal[:], attemptMoves[:])
		copy(m.callLegal[:], callMoves[:])
	}
}

// Both kinds of phase fit the 16 bits of a move set.
var (
	_ [16 - numAttemptPhases]struct{}
	_ [16 - numCallPhases]struct{}
)

// transition is one step of a request's life, as the model's observer
// sees it (see Model.observe).
type transition struct {
	at       time.Duration
	req      int32  // the traced request's number; 0 if not traced
	record   string // "call client:users->api/call", "attempt 2 to api[0]"
	from, to string
	why      string
}

// attemptTo moves a to phase to, or panics if the move is impossible. The
// check's failure and the observer are handled out of line, keeping the
// common path to a table lookup.
func (m *Model) attemptTo(now engine.Time, a *attempt, to attemptPhase, why string) {
	if m.attemptLegal[a.phase]&(1<<to) == 0 {
		m.attemptStep(a, to, why)
	}
	a.phase = to
}

func (m *Model) attemptStep(a *attempt, to attemptPhase, why string) {
	if attemptMoves[a.phase]&(1<<to) == 0 {
		panic(fmt.Sprintf("topology: attempt to %s: impossible move %s -> %s (%s)", a.site.name(), a.phase, to, why))
	}
	m.observe(transition{at: m.sim.Now().Duration(), req: a.trace, record: a.label(), from: a.phase.String(), to: to.String(), why: why})
}

// callTo moves c to phase to, or panics if the move is impossible.
func (m *Model) callTo(now engine.Time, c *call, to callPhase, why string) {
	if m.callLegal[c.phase]&(1<<to) == 0 {
		m.callStep(c, to, why)
	}
	c.phase = to
}

func (m *Model) callStep(c *call, to callPhase, why string) {
	if callMoves[c.phase]&(1<<to) == 0 {
		panic(fmt.Sprintf("topology: call %s: impossible move %s -> %s (%s)", c.site.name(), c.phase, to, why))
	}
	m.observe(transition{at: m.sim.Now().Duration(), req: c.trace, record: "call " + c.site.name(), from: c.phase.String(), to: to.String(), why: why})
}

// note tells the observer of an event in a request's life that is not a
// change of phase (a user request sent, a retry's time). Callers building
// why at run time check m.observe first, so that production never builds
// the string.
func (m *Model) note(now engine.Time, req int32, record, why string) {
	if m.observe != nil {
		m.observe(transition{at: now.Duration(), req: req, record: record, why: why})
	}
}

// noteAttempt tells the observer of an event in a's life. The check
// inlines; the labelling is out of line.
func (m *Model) noteAttempt(now engine.Time, a *attempt, why string) {
	if m.observe != nil {
		m.observeAttempt(now, a, why)
	}
}

// observeAttempt is noteAttempt's out-of-line part: it labels a.
func (m *Model) observeAttempt(now engine.Time, a *attempt, why string) {
	m.note(now, a.trace, a.label(), why)
}

// noteCall tells the observer of an event in c's life.
func (m *Model) noteCall(now engine.Time, c *call, why string) {
	if m.observe != nil {
		m.observeCall(now, c, why)
	}
}

// observeCall is noteCall's out-of-line part: it labels c.
func (m *Model) observeCall(now engine.Time, c *call, why string) {
	m.note(now, c.trace, "call "+c.site.name(), why)
}

// label names an attempt for the observer: its number and where it went.
func (a *attempt) label() string {
	where := a.site.callee
	if a.inst != nil {
		where = fmt.Sprintf("%s[%d]", a.site.callee, a.inst.idx)
	}
	return fmt.Sprintf("attempt %d of %s to %s", a.num, a.site.name(), where)
}

// leave is how an attempt leaves its instance without completing its
// handler (refused, dropped, reset): what it holds there is given back and
// st is sent to the caller. why is for the observer.
func (in *instance) leave(now engine.Time, a *attempt, st status, o policies.Outcome, why string) {
	in.svc.m.noteAttempt(now, a, why)
	in.release(now, a, o)
	in.svc.m.respond(now, a, st)
}

// release gives back what a holds at its instance in its phase: its place
// in the queue, its worker, its place in the system's count, its
// concurrency-limit token (the limit learns o) and its count in
// outstanding. Every way an attempt leaves an instance goes through here.
//
// The phases are tested in order, a worker's first: a switch on the
// phase was a binary search, three tests for the handler that completes,
// where most releases come from (-1 M instructions in the retry storm,
// -2 M in mm10).
func (in *instance) release(now engine.Time, a *attempt, o policies.Outcome) {
	s := in.svc
	switch p := a.phase; {
	case p == apWorking || p == apCalling:
		if a.workEv != 0 {
			s.m.sim.Cancel(a.workEv)
			a.workEv = 0
		}
		in.busy--
		if s.m.tracksRunning {
			in.removeRunning(a)
		}
		s.st.busy.Dec(int64(now))
		s.st.inSystem.Dec(int64(now))
	case p == apSending || p == apNetwork:
		// Arrived and turned away before it was admitted.
	case p == apQueued || p == apExpired:
		in.leaveQueue(now, a)
		in.leaveSystem(now, a)
	case p == apAdmitted:
		in.leaveSystem(now, a)
	default:
		panic(fmt.Sprintf("topology: attempt to %s released in phase %s", a.site.name(), a.phase))
	}
	in.outstanding--
	if a.tspan != 0 || a.holdsLim {
		in.releaseSpanLimit(now, a, o)
	}
}

// releaseSpanLimit is release's end for a traced attempt or one holding
// a concurrency-limit token: its SERVER span ends, its token goes back.
// Out of line, it is the one call on a worker's release, at its end, so
// that the common release keeps its arguments in registers rather than
// spilling them on entry (-2 M instructions in the retry storm, -4 M in
// mm10).
func (in *instance) releaseSpanLimit(now engine.Time, a *attempt, o policies.Outcome) {
	if a.tspan != 0 {
		in.svc.m.trace.serverEnd(a, now, o)
	}
	if a.holdsLim {
		in.releaseLimit(now, a, o)
	}
}

// releaseCall gives back everything c holds, whatever its phase: its
// pending timer, what it holds at the site's guards (releaseGuards), and
// the attempt in flight, which its caller abandons. It is the one place
// that does, for every way a call ends; it runs once per call. The test
// for anything to give back inlines, and the release is out of line
// (releaseHeld): a call that holds nothing, the common end of a call
// answered, costs no call (-12 M instructions in mm10).
func (m *Model) releaseCall(now engine.Time, c *call, o policies.Outcome) {
	if c.retryEv != 0 || c.cur != nil || c.site.guards.holds {
		m.releaseHeld(now, c, o)
	}
}

// releaseHeld is releaseCall's release. At a site whose guards hold
// nothing (guards.holds) their release is skipped.
func (m *Model) releaseHeld(now engine.Time, c *call, o policies.Outcome) {
	if c.retryEv == thenEvent {
		m.sim.CancelThen()
	} else if c.retryEv != 0 {
		m.sim.Cancel(c.retryEv)
	}
	c.retryEv = 0
	if c.site.guards.holds {
		m.releaseGuards(now, c, o)
	}
	if a := c.cur; a != nil {
		m.sim.Cancel(a.timeoutEv)
		a.timeoutEv = 0
		a.caller, a.call = cvAbandoned, nil
		c.cur = nil
		if a.tspan != 0 {
			m.trace.end(a.tspan, now, false, "abandoned: its caller gave up")
		}
		m.noteAttempt(now, a, "abandoned: its caller gave up")
		m.pool.releaseAttempt(a)
		m.callerGone(now, a)
	}
}

// releaseGuards gives back what c holds at its site's guards: its
// bulkhead ticket or slot, its breaker permit (recorded with outcome o),
// its hold on the retry budget and its count in flight.
func (m *Model) releaseGuards(now engine.Time, c *call, o policies.Outcome) {
	g := &c.site.guards
	if c.phase == cpWaitSlot {
		m.sim.Cancel(c.waitEv)
		c.waitEv = 0
		g.bulkhead.Cancel(c.ticket)
		delete(g.waiting, c.ticket)
	}
	m.releaseRetrySlot(c)
	if g.retryConc != nil {
		g.inflight--
	}
	if c.hasPermit {
		c.hasPermit = false
		m.breakerRecord(now, c.site, c.permit, o, now.Sub(c.started))
	}
	if c.holdsSlot {
		c.holdsSlot = false
		m.releaseSlot(now, c.site)
	}
}

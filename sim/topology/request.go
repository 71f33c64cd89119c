package topology

import (
	"time"

	"github.com/ressim/ressim/sim/policies/deadline"

	"github.com/ressim/ressim/sim/engine"
	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/breaker"
	"github.com/ressim/ressim/sim/policies/budget"
	"github.com/ressim/ressim/sim/policies/bulkhead"
	"github.com/ressim/ressim/sim/policies/limit"
	"github.com/ressim/ressim/sim/policies/retry"
)

// userReq is one end-user request, from its intended send time to the
// user's verdict.
//
// Its first fields are set by client.send for every request (prev and
// succ by userList.push), so the pool does not zero them; the rest, a
// userState, it does: 48 bytes zeroed rather than 96 (-1 M instructions
// in mm10).
type userReq struct {
	client     *client
	sent       engine.Time // intended send time; latency is measured from here
	measured   bool        // sent inside the measurement window
	next       *userReq    // free list
	prev, succ *userReq    // the model's list of requests in flight
	userState
}

// userState is the part of a userReq that the pool zeroes.
type userState struct {
	dl         deadline.Deadline // when the user's patience runs out; zero: never
	call       *call
	deadlineEv engine.EventID
	trace      int32  // traced request number, 0 if not traced
	userID     uint32 // its user, for sticky faults (sticky.go); 0 without
	keyID      uint32 // its key, for sticky faults; 0 without
}

// userList is an intrusive doubly linked list of the user requests in
// flight: O(1) insertion and removal, no allocation.
type userList struct{ head *userReq }

func (l *userList) push(u *userReq) {
	u.prev, u.succ = nil, l.head
	if l.head != nil {
		l.head.prev = u
	}
	l.head = u
}

// remove takes u out of the list. Its own links are left as they are:
// push sets both before they are read again (-1 M instructions in the
// retry storm, -2 M in mm10).
func (l *userList) remove(u *userReq) {
	if u.prev != nil {
		u.prev.succ = u.succ
	} else {
		l.head = u.succ
	}
	if u.succ != nil {
		u.succ.prev = u.prev
	}
}

// call is one logical call from a caller (a client, or a handler running
// at a service) to a dependency, with its retries.
//
// Its first fields are set by startCall for every call (phase by the
// pool), so the pool does not zero them; the rest, a callState, it does.
type call struct {
	site      *callSite
	ownerJob  *attempt          // the handler execution that made the call, or nil
	ownerUser *userReq          // the user request, for a client's call, or nil
	dl        deadline.Deadline // the owner's deadline; zero: none
	started   engine.Time
	next      *call
	trace     int32
	userID    uint32 // the user request's identities (sticky.go)
	keyID     uint32
	prio      policies.Priority
	phase     callPhase
	critical  bool
	callState
}

// callState is the part of a call that the pool zeroes.
type callState struct {
	// sibPrev and sibNext link the calls of one ownerJob whose service
	// cancels (attempt.kids), so that a cancelled handler finds them.
	sibPrev, sibNext *call
	// orphanedAt: with orphaned, when its owner was cancelled and it went
	// on detached (no propagated cancellation); work done for it after
	// that is wasted.
	orphanedAt engine.Time
	rs         retry.Call     // retry state
	cur        *attempt       // attempt in flight, nil while backing off
	hg         *hedging       // a hedged call's state once started (hedge.go); nil otherwise
	retryEv    engine.EventID // pending retry or cache lookup

	// Guards.
	permit     breaker.Permit  // the breaker's permit, when hasPermit
	ticket     bulkhead.Ticket // waiting for a slot, when waitEv != 0
	waitEv     engine.EventID
	retryAfter time.Duration // the last rejection's Retry-After hint

	// The small fields last, packed.
	tparent   int32 // traced: the span its attempts are children of (tracespans.go)
	failO     policies.Outcome
	failSt    status // the failure a deferred refusal reports
	cacheMiss bool   // went past a cache: a timely success fills it
	orphaned  bool
	hasPermit bool
	holdsSlot bool           // holds a bulkhead slot
	retrySlot bool           // a retry holds the Envoy-style budget
	paid      budget.Receipt // what the token budget took for the next attempt (a retry or hedge)
}

// status is how a handler execution ended, as sent back to the caller.
type status uint8

const (
	stOK           status = iota
	stDegraded            // answered, with a non-critical dependency missing
	stError               // the service failed (an injected error)
	stDepFailed           // a critical dependency failed
	stRejected            // no room in the queue, or no instance up
	stDropped             // the deadline passed before the request was served
	stTimeout             // (a call's final status) its last attempt timed out
	stCircuitOpen         // (a call's final status) refused by its breaker
	stBulkheadFull        // (a call's final status) no bulkhead slot in time
	stKilled              // (a call's final status) its feature is switched off
)

// attempt is one try of a call and, at the callee, its execution.
//
// Its first fields are set by send for every attempt (step by start,
// phase by the pool), and the next ones on its way through its instance
// before anything reads them, so the pool does not zero them; the rest,
// an attemptState, it does: 112 bytes zeroed rather than 232.
type attempt struct {
	call   *call // nil once the caller no longer waits for it
	site   *callSite
	num    int // the attempt's number in its call, from 1
	sent   engine.Time
	step   int
	permit breaker.Permit // breaker inside retry: this attempt's permit
	next   *attempt
	trace  int32
	userID uint32 // the user request's identities (sticky.go)
	keyID  uint32
	phase  attemptPhase
	prio   policies.Priority
	paid   budget.Receipt // what the call's token budget took for this attempt; 0: a first attempt

	// Set at the instance before they are read: arrived by arrive,
	// started and runIdx (its index in the instance's running list) by
	// start, workStart and stepStart (when the current work step began)
	// by advance, qseq (its sequence number in the FIFO queue, for
	// fifo.remove) by fifo.push. Left out of attemptState, they are not
	// zeroed (-5 M instructions in the retry storm, -3 M in mm10).
	arrived, started     engine.Time
	runIdx               int
	workStart, stepStart engine.Time
	qseq                 uint64

	attemptState
}

// attemptState is the part of an attempt that the pool zeroes.
type attemptState struct {
	inst *instance

	timeoutEv engine.EventID

	// Execution at the callee.
	dl         deadline.Deadline // the request's deadline as propagated; zero: none
	pending    int               // outstanding child calls
	workEv     engine.EventID
	limTok     limit.Token   // the callee's concurrency-limit token, if holdsLim
	retryAfter time.Duration // a shedding callee's hint
	// In the FIFO queue: the event at its deadline. qExpired (below): the
	// deadline passed while it was queued (AtDequeue), so it already
	// stopped counting as in the system; it outlives the apExpired
	// phase, for that accounting.
	expireEv engine.EventID
	// With a cancelling service (cancel.go): gaveUp is when the caller
	// stopped waiting, or its owner was cancelled (0: neither yet), kids
	// the handler's outstanding calls.
	gaveUp engine.Time
	kids   *call

	// The small fields last, packed.
	tspan    int32      // traced: its CLIENT span (tracespans.go)
	caller   callerView // whether the caller still waits for it
	status   status
	degraded bool
	failed   bool
	measured bool // arrived inside the measurement window
	holdsLim bool
	qExpired bool
}

// pools recycle the request records so that memory is bounded by what is
// in flight, not by how many requests have passed.
type pools struct {
	users    *userReq
	calls    *call
	attempts *attempt
	hedgings *hedging
	// live and allocated count attempts, the most numerous record.
	live, allocated int
}

func (p *pools) user() *userReq {
	if u := p.users; u != nil {
		p.users = u.next
		u.userState = userState{}
		return u
	}
	return new(userReq)
}

func (p *pools) putUser(u *userReq) {
	u.next = p.users
	p.users = u
}

// call returns a call in phase new, its callState zeroed; the caller
// (startCall) sets the rest.
func (p *pools) call() *call {
	if c := p.calls; c != nil {
		p.calls = c.next
		c.callState = callState{}
		c.phase = cpNew
		return c
	}
	return new(call)
}

func (p *pools) putCall(c *call) {
	c.next = p.calls
	p.calls = c
}

// putHedging recycles h.
func (p *pools) putHedging(h *hedging) {
	h.next = p.hedgings
	p.hedgings = h
}

// hedging is a fresh hedged call's state, kept apart from call so that
// the calls that do not hedge (most) do not carry it.
func (p *pools) hedging() *hedging {
	if h := p.hedgings; h != nil {
		p.hedgings = h.next
		*h = hedging{}
		return h
	}
	return new(hedging)
}

// attempt returns an attempt in phase new, its attemptState zeroed; the
// caller (send) sets the rest.
func (p *pools) attempt() *attempt {
	p.live++
	if a := p.attempts; a != nil {
		p.attempts = a.next
		a.attemptState = attemptState{}
		a.phase = apNew
		return a
	}
	p.allocated++
	return new(attempt)
}

// releaseAttempt frees a once both its caller and its callee are done
// with it.
func (p *pools) releaseAttempt(a *attempt) {
	if a.caller == cvWaiting || a.phase != apDone {
		return
	}
	p.free(a)
}

// free recycles a, done for both its caller and its callee: what
// releaseAttempt does once its test holds, for a caller that has just
// made both true (response: -6 M instructions in the retry storm, -5 M
// in mm10).
func (p *pools) free(a *attempt) {
	p.live--
	a.next = p.attempts
	p.attempts = a
}

var statusNames = [...]string{"ok", "degraded", "error", "dependency_failed", "rejected", "dropped", "timeout", "circuit_open", "bulkhead_full", "killed"}

// String names the status in traces.
func (s status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "unknown"
}

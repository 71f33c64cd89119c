package engine

import (
	"errors"
	"fmt"
	"time"
)

// Handler receives the events a component scheduled. arg is the value
// given when the event was scheduled; pass a pointer (or nil) so that
// scheduling does not allocate: storing a non-pointer value in an interface
// may.
type Handler interface {
	Handle(now Time, arg any)
}

// HandlerFunc adapts a function to Handler. Create it once, not per event.
type HandlerFunc func(now Time, arg any)

// Handle calls f(now, arg).
func (f HandlerFunc) Handle(now Time, arg any) { f(now, arg) }

// EventID identifies a scheduled event for cancellation. The zero EventID
// never identifies an event, so it can mean "none".
type EventID uint64

// ErrPast is returned when an event is scheduled before the current instant.
var ErrPast = errors.New("engine: event scheduled in the past")

// errNilHandler is returned when an event is scheduled without a handler.
var errNilHandler = errors.New("engine: nil handler")

// record is an event's payload, kept in a slab so heap entries stay small.
// Freeing a record bumps gen, which makes every entry and EventID that
// still points at it stale: an EventID or entry is live exactly when its
// generation is the record's (IDs are minted only when a record is
// allocated, after its last free). A generation wraps after 2^32 reuses of
// one slot, far more than can happen while one stale entry is pending.
// A free record keeps its handler and argument until it is reused: clearing
// them cost four pointer stores per event, each with its write-barrier
// check, and kept nothing alive that the model does not keep (handlers and
// pooled records). next links the free records (index+1; 0 ends the list).
type record struct {
	h    Handler
	arg  any
	gen  uint32
	next uint32
}

// Sim is one simulation run's clock and event queue. The zero value is not
// usable; create one with New.
type Sim struct {
	now     Time
	seq     uint64
	seed    uint64
	heap    eventHeap
	recs    []record
	free    uint32 // first free record's index+1, 0 if none (record.next)
	lanes   []*Lane
	pending int
	fired   uint64
	// halt holds two conditions the event loop tests as one, a byte
	// that is zero on its common path: haltStop (a handler or the hook
	// called Stop) and haltThen (Then took an event, the earliest pending
	// one: thenH.Handle(now, thenArg), then.go).
	halt    uint8
	streams []namedStream // see Branch
	// nowq holds the events scheduled for the instant they were scheduled
	// at (After(0), At(Now())): a FIFO, outside the heap (nowq.go).
	nowq    nowQueue
	thenH   Handler
	thenArg any
	// hole reports that the heap's root is the entry of the event being
	// fired, left in place so that the first event its handler schedules
	// can take the root's place (push): one sift-down instead of the
	// pop's and the push's sifts. settle removes it otherwise.
	hole bool

	// The checkpoint hook (see Every): onCheck runs when fired reaches
	// nextCheck; nextCheck is 0 without a hook, which fired never equals
	// after an increment (short of wrapping 2^64).
	nextCheck uint64
	every     uint64
	onCheck   func()
}

// New returns a simulation at time 0 whose random streams derive from seed.
func New(seed uint64) *Sim {
	return &Sim{seed: seed}
}

// Now returns the current virtual instant.
func (s *Sim) Now() Time { return s.now }

// Seed returns the seed the simulation was created with.
func (s *Sim) Seed() uint64 { return s.seed }

// Pending returns the number of scheduled, not yet fired or cancelled events.
func (s *Sim) Pending() int { return s.pending }

// Fired returns the number of events fired so far.
func (s *Sim) Fired() uint64 { return s.fired }

// At schedules h.Handle(t, arg) at instant t. It returns ErrPast if t is
// before Now; an event at Now runs after every event already scheduled for
// Now.
func (s *Sim) At(t Time, h Handler, arg any) (EventID, error) {
	if t < s.now || h == nil {
		return 0, s.refuse(t, h)
	}
	idx, gen := s.alloc(h, arg)
	s.seq++
	if e := (entry{at: t, seq: s.seq, idx: idx, gen: gen}); t == s.now {
		s.nowq.push(e)
	} else {
		s.push(e)
	}
	return makeID(idx, gen), nil
}

// After schedules h.Handle at Now()+d. A negative d is ErrPast. It repeats
// At's four lines rather than calling it: a model schedules most events
// through After, and the call would be one more on every one.
func (s *Sim) After(d time.Duration, h Handler, arg any) (EventID, error) {
	t := s.now.Add(d)
	if d < 0 || h == nil {
		return 0, s.refuse(t, h)
	}
	idx, gen := s.alloc(h, arg)
	s.seq++
	if e := (entry{at: t, seq: s.seq, idx: idx, gen: gen}); t == s.now {
		s.nowq.push(e)
	} else {
		s.push(e)
	}
	return makeID(idx, gen), nil
}

// refuse returns the error for an event that cannot be scheduled at t.
// It names the handler's type, so that a model that panics on the error
// (scheduling is refused only for a programming error) tells which event
// was wrong.
func (s *Sim) refuse(t Time, h Handler) error {
	if h == nil {
		return errNilHandler
	}
	return fmt.Errorf("%w: %T at %v, now %v", ErrPast, h, t, s.now)
}

// Cancel removes a pending event. It reports whether the event was still
// pending; cancelling a fired, cancelled or zero EventID is a no-op that
// returns false. Cancel is O(1).
func (s *Sim) Cancel(id EventID) bool {
	idx := uint32(id) - 1 // the zero EventID wraps to an index no record has
	if uint(idx) >= uint(len(s.recs)) {
		return false
	}
	r := &s.recs[idx]
	if r.gen != uint32(id>>32) {
		return false
	}
	s.release(r, idx)
	return true
}

// Stop makes the current Run or RunUntil return after the event being
// handled. Later calls to Run, RunUntil or Step resume.
func (s *Sim) Stop() { s.halt |= haltStop }

// Every makes the simulation call f after every n events fired (before
// the n-th event's handler runs), so that a caller can bound a run's work,
// memory or wall time without a check per event: f may call Stop, which
// ends Run or RunUntil after that event. n = 0 or f = nil removes the hook.
// The hook costs one comparison per event.
func (s *Sim) Every(n uint64, f func()) {
	if n == 0 || f == nil {
		s.nextCheck, s.every, s.onCheck = 0, 0, nil
		return
	}
	s.every, s.onCheck = n, f
	s.nextCheck = s.fired + n
}

// Step fires the earliest pending event. It reports false if there was none.
func (s *Sim) Step() bool {
	return s.fireNext(MaxTime)
}

// RunUntil fires every event scheduled at or before t, in order, then sets
// the clock to t (if t is later than Now). Events that handlers schedule at
// or before t run too. It returns early, with the clock at the last event,
// if a handler calls Stop.
func (s *Sim) RunUntil(t Time) {
	s.halt &^= haltStop
	s.run(t)
	if s.halt&haltStop == 0 && t > s.now {
		s.now = t
	}
}

// Run fires events until none is pending or a handler calls Stop.
func (s *Sim) Run() {
	s.halt &^= haltStop
	s.run(MaxTime)
}

// run fires the events at or before limit, in order, until none is left
// or a handler calls Stop. It is fireNext's loop with the firing inside:
// one call less per event than calling fireNext for each (the event loop
// of every run; in WebAssembly a call costs several times what it does
// natively).
func (s *Sim) run(limit Time) {
	for {
		if s.halt != 0 { // stopped, or Then took the earliest pending event
			if s.halt&haltStop != 0 || s.now > limit {
				return
			}
			s.halt &^= haltThen
			s.pending--
			s.fired++
			if s.fired == s.nextCheck {
				s.nextCheck += s.every
				s.onCheck()
			}
			s.thenH.Handle(s.now, s.thenArg)
			continue
		}
		// next, by hand: as a call it cost mm10 3 % more instructions.
		s.settle()
		var e entry
		if q := &s.nowq; q.n > 0 && (len(s.heap) == 0 || !s.heap[0].less(&q.ring[q.head])) {
			if s.now > limit { // the head is for the current instant
				return
			}
			e = q.pop()
		} else {
			if len(s.heap) == 0 || s.heap[0].at > limit {
				return
			}
			e = s.heap[0]
			s.hole = true
			if e.idx&laneBit != 0 {
				e = s.lanes[e.idx&^laneBit].advance()
			}
		}
		r := &s.recs[e.idx]
		if r.gen != e.gen {
			continue // cancelled; settle removes it
		}
		h, arg := r.h, r.arg
		s.release(r, e.idx)
		s.now = e.at
		s.fired++
		if s.fired == s.nextCheck {
			s.nextCheck += s.every
			s.onCheck()
		}
		h.Handle(e.at, arg)
	}
}

// next takes the earliest pending entry at or before limit: the
// now-queue's head, or the heap's root, left in place as the hole (see
// Sim.hole), and reports false if there is none. The entry may be stale.
// Every entry on the now-queue is for the current instant, so only a heap
// entry for that instant scheduled earlier can come before its head.
func (s *Sim) next(limit Time) (entry, bool) {
	s.settle()
	if q := &s.nowq; q.n > 0 && (len(s.heap) == 0 || !s.heap[0].less(&q.ring[q.head])) {
		if q.ring[q.head].at > limit {
			return entry{}, false
		}
		return q.pop(), true
	}
	if len(s.heap) == 0 || s.heap[0].at > limit {
		return entry{}, false
	}
	e := s.heap[0]
	s.hole = true
	if e.idx&laneBit != 0 {
		e = s.lanes[e.idx&^laneBit].advance()
	}
	return e, true
}

// fireNext fires the earliest live event at or before limit and reports
// whether it fired one. Stale entries met on the way are discarded.
func (s *Sim) fireNext(limit Time) bool {
	var h Handler
	var arg any
	if s.halt&haltThen != 0 { // Then took the earliest pending event
		if s.now > limit {
			return false
		}
		s.halt &^= haltThen
		s.pending--
		h, arg = s.thenH, s.thenArg
	} else {
		for {
			e, ok := s.next(limit)
			if !ok {
				return false
			}
			r := &s.recs[e.idx]
			if r.gen != e.gen {
				continue // cancelled
			}
			h, arg = r.h, r.arg
			s.release(r, e.idx)
			s.now = e.at
			break
		}
	}
	s.fired++
	if s.fired == s.nextCheck {
		s.nextCheck += s.every
		s.onCheck()
	}
	h.Handle(s.now, arg)
	return true
}

// push adds e to the heap, in the place of the root if the root is the
// fired event's entry (hole): e sifts down from there, and the heap keeps
// its size. Every entry goes through push, so that no other entry ever
// lands in the hole.
func (s *Sim) push(e entry) {
	s.heap.insert(e, s.hole)
	s.hole = false
}

// settle removes the fired event's entry from the root if no event took
// its place.
func (s *Sim) settle() {
	if s.hole {
		s.hole = false
		s.heap.pop()
	}
}

// alloc stores an event's payload and returns its slot and generation.
// Its first branch is allocFree, written out: as a call it made alloc too
// big to inline.
func (s *Sim) alloc(h Handler, arg any) (uint32, uint32) {
	s.pending++
	if s.free != 0 {
		idx := s.free - 1
		r := &s.recs[idx]
		s.free = r.next
		r.h, r.arg = h, arg
		return idx, r.gen
	}
	if len(s.recs) >= laneBit-1 {
		panic("engine: more than 2^31 pending events")
	}
	s.recs = append(s.recs, record{h: h, arg: arg})
	return uint32(len(s.recs) - 1), 0
}

// allocFree is alloc when a record is free (s.free != 0): no append, so
// that a caller's fast path that uses it keeps its arguments in registers.
func (s *Sim) allocFree(h Handler, arg any) (uint32, uint32) {
	s.pending++
	idx := s.free - 1
	r := &s.recs[idx]
	s.free = r.next
	r.h, r.arg = h, arg
	return idx, r.gen
}

// release frees r, the live record at index idx, making every entry
// pointing at it stale. Its callers have r at hand: taking it, not the
// index alone, spares an index test and an address computation.
func (s *Sim) release(r *record, idx uint32) {
	r.gen++
	r.next = s.free
	s.free = idx + 1
	s.pending--
}

// live reports whether entry e still refers to a pending event.
func (s *Sim) live(e *entry) bool {
	return s.recs[e.idx].gen == e.gen
}

func makeID(idx, gen uint32) EventID {
	return EventID(uint64(gen)<<32 | uint64(idx+1))
}

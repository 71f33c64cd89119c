package engine

import (
	"fmt"
	"time"
)

// A Lane schedules events that all have the same delay, such as the timeouts
// of one call site. Events scheduled on a lane fire in scheduling order, so
// the lane keeps them in a ring buffer, and only its earliest entry is in
// the simulation's heap: scheduling is O(1), and cancelling (the usual fate
// of a timeout) never touches the heap. Lane events interleave with all
// other events in exact (time, sequence) order.
//
// A lane also takes events at instants of the caller's choosing (At) that
// usually, though not always, come in order, such as the deadlines of the
// requests queued at one server: the ring keeps those in order and the
// rest go to the heap, and which of the two holds an event does not change
// when it fires.
type Lane struct {
	sim    *Sim
	id     uint32
	delay  time.Duration
	ring   []entry // len is a power of two
	head   int
	n      int
	last   Time // the time of the ring's tail (the entry put on it last) when n > 0
	queued bool // the head is represented in the heap
}

// NewLane returns a lane whose events fire delay after they are scheduled.
func (s *Sim) NewLane(delay time.Duration) (*Lane, error) {
	if delay < 0 {
		return nil, fmt.Errorf("%w: lane delay %v", ErrPast, delay)
	}
	l := &Lane{sim: s, id: uint32(len(s.lanes)), delay: delay, ring: make([]entry, 16)}
	s.lanes = append(s.lanes, l)
	return l, nil
}

// Delay returns the lane's constant delay.
func (l *Lane) Delay() time.Duration { return l.delay }

// Schedule schedules h.Handle(now+Delay(), arg). Cancel the returned
// EventID with the Sim's Cancel.
func (l *Lane) Schedule(h Handler, arg any) EventID {
	return l.schedule(l.sim.now, l.delay, h, arg) // small enough to inline: one call per timeout
}

// At schedules h.Handle(t, arg) and returns its EventID, for the Sim's
// Cancel; it returns ErrPast if t is before Now. An event at or after the
// latest one the lane holds joins the lane in O(1); an earlier one goes to
// the simulation's heap, as Sim.At would put it. Either way it fires in
// exact (time, sequence) order, so At is Sim.At made cheap for instants
// that mostly arrive in order.
func (l *Lane) At(t Time, h Handler, arg any) (EventID, error) {
	if s := l.sim; t < s.now || h == nil {
		return 0, s.refuse(t, h)
	}
	return l.schedule(t, 0, h, arg), nil
}

// schedule puts the event at t+d on the lane's ring if that keeps the ring
// in time order, and in the heap otherwise. It panics if h is nil. Its
// common case, a timeout joining a lane already queued, with room on the
// ring and a free record, makes no call (-26 M instructions in the retry
// storm); the rest goes to scheduleSlow.
func (l *Lane) schedule(t Time, d time.Duration, h Handler, arg any) EventID {
	t = t.Add(d)
	s := l.sim
	if h == nil || s.free == 0 || !l.queued || l.n == len(l.ring) || t < l.last {
		return l.scheduleSlow(t, h, arg)
	}
	idx, gen := s.allocFree(h, arg)
	s.seq++
	l.ring[(l.head+l.n)&(len(l.ring)-1)] = entry{at: t, seq: s.seq, idx: idx, gen: gen}
	l.n++
	l.last = t
	return makeID(idx, gen)
}

// scheduleSlow is schedule's general case, for the event at t.
func (l *Lane) scheduleSlow(t Time, h Handler, arg any) EventID {
	if h == nil {
		panic("engine: nil handler")
	}
	s := l.sim
	idx, gen := s.alloc(h, arg)
	s.seq++
	e := entry{at: t, seq: s.seq, idx: idx, gen: gen}
	mask := len(l.ring) - 1
	if l.n > 0 && t < l.last {
		s.push(e)
		return makeID(idx, gen)
	}
	if l.n == len(l.ring) {
		l.grow()
		mask = len(l.ring) - 1
	}
	l.ring[(l.head+l.n)&mask] = e
	l.n++
	l.last = t
	if !l.queued {
		l.queued = true
		s.push(entry{at: e.at, seq: e.seq, idx: laneBit | l.id})
	}
	return makeID(idx, gen)
}

// advance removes and returns the lane's head, whose representative the
// heap just popped, and queues the next live entry's representative.
func (l *Lane) advance() entry {
	mask := len(l.ring) - 1
	e := l.ring[l.head]
	l.head = (l.head + 1) & mask
	l.n--
	s := l.sim
	for l.n > 0 && !s.live(&l.ring[l.head]) {
		l.head = (l.head + 1) & mask
		l.n--
	}
	if l.n > 0 {
		h := &l.ring[l.head]
		s.push(entry{at: h.at, seq: h.seq, idx: laneBit | l.id})
	} else {
		l.queued = false
	}
	return e
}

func (l *Lane) grow() {
	ring := make([]entry, 2*len(l.ring))
	mask := len(l.ring) - 1
	for i := 0; i < l.n; i++ {
		ring[i] = l.ring[(l.head+i)&mask]
	}
	l.ring = ring
	l.head = 0
}

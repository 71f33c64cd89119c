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
type Lane struct {
	sim    *Sim
	id     uint32
	delay  time.Duration
	ring   []entry // len is a power of two
	head   int
	n      int
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
	s := l.sim
	if h == nil {
		panic("engine: nil handler")
	}
	idx, gen := s.alloc(h, arg)
	s.seq++
	e := entry{at: s.now.Add(l.delay), seq: s.seq, idx: idx, gen: gen}
	if l.n == len(l.ring) {
		l.grow()
	}
	l.ring[(l.head+l.n)&(len(l.ring)-1)] = e
	l.n++
	if !l.queued {
		l.queued = true
		s.heap.push(entry{at: e.at, seq: e.seq, idx: laneBit | l.id})
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
		s.heap.push(entry{at: h.at, seq: h.seq, idx: laneBit | l.id})
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

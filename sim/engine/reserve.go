package engine

import (
	"fmt"
	"time"
)

// A Reservation is the place in the order of events that an event
// scheduled at the instant it was taken would have had. Reserve takes the
// sequence number At would give; AfterReserved and Lane.ScheduleReserved
// schedule an event in that place later in the same instant, or the
// caller never does. It serves a caller that learns whether it needs an
// event only after scheduling others, such as a timeout made moot by an
// answer already on its way: scheduled in its reserved place, the event
// fires exactly where it would have, and every other event keeps its own
// place whether it is scheduled or not.
//
// A reserved event must be for an instant after the reservation's: an
// event for the current instant has its place among the events already
// taken for it (Then), which a reservation cannot keep.
type Reservation struct {
	at  Time   // the instant it was taken
	seq uint64 // its sequence number; 0 for the zero Reservation, which holds no place
}

// Reserve takes the next sequence number for an event the caller may
// schedule later in the current instant (Reservation).
func (s *Sim) Reserve() Reservation {
	s.seq++
	return Reservation{at: s.now, seq: s.seq}
}

// Held reports whether r holds a place: it was taken by Reserve.
func (r Reservation) Held() bool { return r.seq != 0 }

// AfterReserved schedules h.Handle(Now()+d, arg) in the place r holds. It
// returns an error if r holds no place or was taken at another instant,
// or if d is not positive (Reservation), or h is nil.
func (s *Sim) AfterReserved(r Reservation, d time.Duration, h Handler, arg any) (EventID, error) {
	if err := s.checkReserved(r, d, h); err != nil {
		return 0, err
	}
	idx, gen := s.alloc(h, arg)
	s.push(entry{at: s.now.Add(d), seq: r.seq, idx: idx, gen: gen})
	return makeID(idx, gen), nil
}

// ScheduleReserved schedules h.Handle(Now()+Delay(), arg) on the lane in
// the place r holds. It panics where AfterReserved returns an error (a
// programming error, as a nil handler is for Schedule).
func (l *Lane) ScheduleReserved(r Reservation, h Handler, arg any) EventID {
	s := l.sim
	if err := s.checkReserved(r, l.delay, h); err != nil {
		panic(err)
	}
	t := s.now.Add(l.delay)
	if l.n > 0 && t == l.last && r.seq < l.ring[(l.head+l.n-1)&(len(l.ring)-1)].seq {
		// An event scheduled on the lane since r was taken, for the
		// same instant: this one comes before it, off the ring.
		idx, gen := s.alloc(h, arg)
		s.push(entry{at: t, seq: r.seq, idx: idx, gen: gen})
		return makeID(idx, gen)
	}
	return l.put(l.delay, r.seq, h, arg)
}

// checkReserved returns the error for scheduling h d after now in r's
// place, or nil.
func (s *Sim) checkReserved(r Reservation, d time.Duration, h Handler) error {
	switch {
	case h == nil:
		return errNilHandler
	case !r.Held() || r.at != s.now:
		return fmt.Errorf("engine: reservation taken at %v used at %v", r.at, s.now)
	case d <= 0:
		return fmt.Errorf("engine: reserved event %v after its reservation; it must be later", d)
	}
	return nil
}

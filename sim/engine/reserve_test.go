package engine

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// reserveProgram is a random model for TestReservedKeepsItsPlace. Each
// event schedules a few more, some directly and some through a
// reservation: taken at once, and in the deferred run scheduled (or
// dropped) only after the event's other scheduling, on a lane or after a
// delay; in the direct run scheduled (or dropped, by a reservation never
// used) at once. Both runs consume the generator in firing order.
type reserveProgram struct {
	s       *Sim
	lanes   [2]*Lane
	rng     *rand.Rand
	deferIt bool
	next    int
	left    int
	fired   []thenFiring
}

type deferred struct {
	r    Reservation
	lane *Lane // nil: AfterReserved(d)
	d    time.Duration
	n    int
}

func (p *reserveProgram) Handle(now Time, arg any) {
	p.fired = append(p.fired, thenFiring{now, arg.(int)})
	var later []deferred
	for k := p.rng.IntN(4); k > 0 && p.left > 0; k-- {
		p.left--
		p.next++
		n := p.next
		lane := p.lanes[p.rng.IntN(2)]
		switch p.rng.IntN(5) {
		case 0: // plainly, on a lane
			lane.Schedule(p, n)
		case 1: // plainly, later or now
			p.s.After(time.Duration(p.rng.IntN(4)), p, n)
		case 2: // reserved, dropped
			p.s.Reserve()
		default: // reserved, on a lane or after a delay
			dl := deferred{n: n, d: time.Duration(1 + p.rng.IntN(3))}
			if p.rng.IntN(2) == 0 {
				dl.lane = lane
			}
			if !p.deferIt {
				p.schedule(dl, true)
				continue
			}
			dl.r = p.s.Reserve()
			later = append(later, dl)
		}
	}
	for _, dl := range later {
		p.schedule(dl, false)
	}
}

// schedule schedules dl: at once (direct), or in its reserved place.
func (p *reserveProgram) schedule(dl deferred, direct bool) {
	switch {
	case direct && dl.lane != nil:
		dl.lane.Schedule(p, dl.n)
	case direct:
		p.s.After(dl.d, p, dl.n)
	case dl.lane != nil:
		dl.lane.ScheduleReserved(dl.r, p, dl.n)
	default:
		if _, err := p.s.AfterReserved(dl.r, dl.d, p, dl.n); err != nil {
			panic(err)
		}
	}
}

func runReserveProgram(seed uint64, deferIt bool) []thenFiring {
	s := New(1)
	p := &reserveProgram{s: s, rng: rand.New(rand.NewPCG(seed, 9)), deferIt: deferIt, left: 2000}
	p.lanes[0], _ = s.NewLane(2)
	p.lanes[1], _ = s.NewLane(3)
	for i := 0; i < 10; i++ {
		p.next++
		s.At(Time(i), p, p.next)
	}
	s.Run()
	return p.fired
}

// TestReservedKeepsItsPlace: events scheduled in reserved places, after
// other events of the same instant, fire exactly where they would have
// fired if scheduled when the places were taken, on lanes (where a later
// event of the same instant may already be on the ring) and in the heap.
func TestReservedKeepsItsPlace(t *testing.T) {
	for seed := uint64(1); seed <= 60; seed++ {
		a, b := runReserveProgram(seed, false), runReserveProgram(seed, true)
		if !slices.Equal(a, b) {
			t.Fatalf("seed %d: the runs part (%d and %d firings)", seed, len(a), len(b))
		}
		if len(a) < 100 {
			t.Fatalf("seed %d: only %d firings", seed, len(a))
		}
	}
}

// TestReservationRefused: a reservation is for a later instant of the one
// it was taken at, and only that one.
func TestReservationRefused(t *testing.T) {
	nop := HandlerFunc(func(Time, any) {})
	s := New(1)
	r := s.Reserve()
	for _, tc := range []struct {
		name string
		r    Reservation
		d    time.Duration
		h    Handler
		want string
	}{
		{"the zero reservation", Reservation{}, 1, nop, "reservation taken"},
		{"for now", r, 0, nop, "must be later"},
		{"nil handler", r, 1, nil, "nil handler"},
	} {
		if _, err := s.AfterReserved(tc.r, tc.d, tc.h, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one with %q", tc.name, err, tc.want)
		}
	}
	s.At(5, nop, nil)
	s.Run()
	if _, err := s.AfterReserved(r, 1, nop, nil); err == nil {
		t.Error("a reservation taken at 0 was used at 5")
	}
	lane, _ := s.NewLane(0)
	defer func() {
		if recover() == nil {
			t.Error("ScheduleReserved on a lane of delay 0 did not panic")
		}
	}()
	lane.ScheduleReserved(s.Reserve(), nop, nil)
}

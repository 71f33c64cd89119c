package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// thenProgram is a random model for TestThenMatchesAt: each event, when it
// fires, schedules up to three more (for the current instant, later, on a
// lane, or "soon": for the current instant with an ID no one keeps) and
// cancels some pending ones, all decided by a generator that both runs
// consume in firing order. soon is At(Now()) in one run and Then, falling
// back to At, in the other.
type thenProgram struct {
	s       *Sim
	lanes   [2]*Lane
	rng     *rand.Rand
	useThen bool
	ids     []EventID // cancellable events, in scheduling order
	next    int
	fired   []thenFiring
	took    int // events Then took
	left    int // events still to schedule
}

type thenFiring struct {
	at Time
	n  int
}

func (p *thenProgram) Handle(now Time, arg any) {
	p.fired = append(p.fired, thenFiring{now, arg.(int)})
	for k := p.rng.IntN(3); k > 0 && p.left > 0; k-- {
		p.left--
		p.next++
		n := p.next
		switch p.rng.IntN(10) {
		case 0, 1, 2:
			p.soon(n)
		case 3:
			id, _ := p.s.After(0, p, n)
			p.ids = append(p.ids, id)
		case 4, 5, 6:
			id, _ := p.s.After(time.Duration(p.rng.IntN(60)), p, n)
			p.ids = append(p.ids, id)
		case 7, 8:
			p.ids = append(p.ids, p.lanes[p.rng.IntN(2)].Schedule(p, n))
		case 9:
			id, _ := p.lanes[0].At(now+Time(p.rng.IntN(2)), p, n)
			p.ids = append(p.ids, id)
		}
	}
	if len(p.ids) > 0 && p.rng.IntN(3) == 0 {
		p.s.Cancel(p.ids[p.rng.IntN(len(p.ids))])
	}
}

func (p *thenProgram) soon(n int) {
	if p.useThen && p.s.Then(p, n) {
		p.took++
		return
	}
	p.s.At(p.s.Now(), p, n)
}

func runThenProgram(seed uint64, useThen, step bool) *thenProgram {
	s := New(1)
	p := &thenProgram{s: s, rng: rand.New(rand.NewPCG(seed, 7)), useThen: useThen, left: 3000}
	p.lanes[0], _ = s.NewLane(0)
	p.lanes[1], _ = s.NewLane(20)
	checks := 0
	s.Every(97, func() { checks++ })
	for i := 0; i < 20; i++ {
		p.next++
		s.At(Time(10*i), p, p.next)
	}
	if step {
		for s.Step() {
		}
	} else {
		s.Run()
	}
	if s.Pending() != 0 {
		panic("events left pending")
	}
	if uint64(checks) != s.Fired()/97 {
		panic("the hook missed events")
	}
	return p
}

// TestThenMatchesAt runs random programs twice, with every "soon" event
// scheduled by At(Now()) and by Then where it takes it, and requires the
// same events to fire in the same order at the same instants: Then's
// whole promise. Then must take some events and refuse others, or the
// test would show nothing.
func TestThenMatchesAt(t *testing.T) {
	took, events := 0, 0
	for seed := uint64(1); seed <= 100; seed++ {
		for _, step := range []bool{false, true} {
			a := runThenProgram(seed, false, step)
			b := runThenProgram(seed, true, step)
			if !slices.Equal(a.fired, b.fired) {
				i := 0
				for i < min(len(a.fired), len(b.fired)) && a.fired[i] == b.fired[i] {
					i++
				}
				t.Fatalf("seed %d step %v: the runs part at firing %d of %d/%d", seed, step, i, len(a.fired), len(b.fired))
			}
			took += b.took
			events += a.next // every event's number
		}
	}
	if took == 0 || took == events {
		t.Fatalf("Then took %d of %d events", took, events)
	}
	t.Logf("Then took %d of %d events", took, events)
}

// TestThenRefuses: the conditions under which Then must leave the event
// to At, one per row, each set up from an idle simulation at instant 10.
func TestThenRefuses(t *testing.T) {
	nop := HandlerFunc(func(Time, any) {})
	for _, tc := range []struct {
		name  string
		setup func(s *Sim)
		want  bool
	}{
		{"idle", func(s *Sim) {}, true},
		{"later events only", func(s *Sim) { s.At(11, nop, nil) }, true},
		{"an event queued for now", func(s *Sim) { s.At(10, nop, nil) }, false},
		{"a lane event for now", func(s *Sim) { l, _ := s.NewLane(0); l.Schedule(nop, nil) }, false},
		{"a cancelled event for now, still in the queue", func(s *Sim) { id, _ := s.After(0, nop, nil); s.Cancel(id) }, false},
		{"Then already holds one", func(s *Sim) { s.Then(nop, nil) }, false},
		{"stopped", func(s *Sim) { s.Stop() }, false},
	} {
		s := New(1)
		s.At(10, nop, nil)
		s.Run()
		tc.setup(s)
		if got := s.Then(nop, nil); got != tc.want {
			t.Errorf("%s: Then = %v, want %v", tc.name, got, tc.want)
		}
	}
	if New(1).Then(nil, nil) {
		t.Error("Then took a nil handler")
	}
}

// TestThenBesideTheHole: while an event taken from the heap fires, its
// entry stays at the root (Sim.hole) until something takes its place;
// Then refuses until then (the heap's least live entry is not at hand),
// and takes the event once the handler has scheduled its follow-up.
func TestThenBesideTheHole(t *testing.T) {
	s := New(1)
	var took []bool
	nop := HandlerFunc(func(Time, any) {})
	h := HandlerFunc(func(now Time, arg any) {
		took = append(took, s.Then(nop, nil))
		s.At(now+10, nop, nil) // takes the root's place
		took = append(took, s.Then(nop, nil))
	})
	s.At(5, h, nil)
	s.Run()
	if !slices.Equal(took, []bool{false, true}) {
		t.Fatalf("Then took %v, want [false true]", took)
	}
}

// TestCancelThen: an event Then took is cancelled by CancelThen, once,
// and not by Cancel of any EventID.
func TestCancelThen(t *testing.T) {
	s := New(1)
	fired := 0
	h := HandlerFunc(func(Time, any) { fired++ })
	if s.CancelThen() {
		t.Fatal("CancelThen cancelled an event with none taken")
	}
	if !s.Then(h, nil) || s.Pending() != 1 {
		t.Fatalf("Then refused on an idle simulation, or Pending() = %d", s.Pending())
	}
	if !s.CancelThen() || s.CancelThen() || s.Pending() != 0 {
		t.Fatalf("CancelThen: want true then false, Pending() 0 (got %d)", s.Pending())
	}
	s.Run()
	if fired != 0 {
		t.Fatalf("a cancelled event fired %d times", fired)
	}
}

// TestThenAcrossStop: a handler that calls Then and then Stop leaves the
// event pending; it fires first when the run resumes.
func TestThenAcrossStop(t *testing.T) {
	s := New(1)
	var got []string
	var h HandlerFunc
	h = func(now Time, arg any) {
		got = append(got, arg.(string))
		if arg == "a" {
			s.At(now+100, h, "later") // takes the fired entry's place (Sim.hole)
			if !s.Then(h, "then") {
				t.Error("Then refused")
			}
			s.After(0, h, "queued")
			s.Stop()
		}
	}
	s.At(3, h, "a")
	s.RunUntil(10)
	if !slices.Equal(got, []string{"a"}) || s.Pending() != 3 || s.Now() != 3 {
		t.Fatalf("stopped: fired %v, %d pending at %v; want [a], 3 at 3", got, s.Pending(), s.Now())
	}
	s.RunUntil(10)
	if !slices.Equal(got, []string{"a", "then", "queued"}) || s.Now() != 10 {
		t.Fatalf("resumed: fired %v at %v", got, s.Now())
	}
}

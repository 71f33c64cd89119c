package engine

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// recorder is a Handler that logs what fired, and when.
type recorder struct {
	log []string
	at  []Time
}

func (r *recorder) Handle(now Time, arg any) {
	r.log = append(r.log, *arg.(*string))
	r.at = append(r.at, now)
}

func str(s string) *string { return &s }

func TestOrderByTimeThenSequence(t *testing.T) {
	s := New(1)
	r := &recorder{}
	steps := []struct {
		at   Time
		name string
	}{
		{30, "c"}, {10, "a1"}, {20, "b"}, {10, "a2"}, {0, "zero"}, {30, "c2"}, {10, "a3"},
	}
	for _, st := range steps {
		if _, err := s.At(st.at, r, str(st.name)); err != nil {
			t.Fatal(err)
		}
	}
	s.Run()
	want := []string{"zero", "a1", "a2", "a3", "b", "c", "c2"}
	if !slices.Equal(r.log, want) {
		t.Fatalf("fired %v, want %v", r.log, want)
	}
	if !slices.IsSorted(r.at) {
		t.Fatalf("times not monotone: %v", r.at)
	}
	if s.Now() != 30 || s.Pending() != 0 || s.Fired() != 7 {
		t.Fatalf("now %v pending %d fired %d, want 30s 0 7", s.Now(), s.Pending(), s.Fired())
	}
}

func TestSchedulingErrors(t *testing.T) {
	s := New(1)
	r := &recorder{}
	s.At(100, r, str("x"))
	s.Run()
	// The error names the handler's type: a model panics with it.
	if _, err := s.At(99, r, str("past")); !errors.Is(err, ErrPast) || !strings.Contains(fmt.Sprint(err), "*engine.recorder at") {
		t.Errorf("At(past) err = %v, want ErrPast naming *engine.recorder", err)
	}
	if _, err := s.After(-1, r, str("neg")); !errors.Is(err, ErrPast) || !strings.Contains(fmt.Sprint(err), "*engine.recorder at") {
		t.Errorf("After(-1) err = %v, want ErrPast naming *engine.recorder", err)
	}
	if _, err := s.After(-1, nil, nil); err == nil {
		t.Error("After with a nil handler: want an error")
	}
	if _, err := s.After(5, nil, nil); err == nil {
		t.Error("After with a nil handler: want an error")
	}
	if _, err := s.At(100, r, str("now")); err != nil {
		t.Errorf("At(now) err = %v, want nil", err)
	}
	if _, err := s.At(200, nil, nil); err == nil {
		t.Error("At with a nil handler: want an error")
	}
	if _, err := s.NewLane(-time.Second); !errors.Is(err, ErrPast) {
		t.Errorf("NewLane(-1s) err = %v, want ErrPast", err)
	}
}

func TestCancel(t *testing.T) {
	s := New(1)
	r := &recorder{}
	a, _ := s.At(10, r, str("a"))
	b, _ := s.At(20, r, str("b"))
	if !s.Cancel(a) {
		t.Fatal("Cancel(pending) = false")
	}
	if s.Cancel(a) {
		t.Fatal("second Cancel = true")
	}
	if s.Cancel(0) {
		t.Fatal("Cancel(0) = true")
	}
	// IDs no Sim handed out: slots beyond the records, the largest index.
	for _, id := range []EventID{b + 1, 1<<32 | 1<<20, 1<<32 - 1, 1<<64 - 1} {
		if s.Cancel(id) {
			t.Fatalf("Cancel(%#x) = true for an ID never handed out", uint64(id))
		}
	}
	if s.Pending() != 1 {
		t.Fatalf("Pending = %d, want 1", s.Pending())
	}
	// The freed slot is reused; the old ID must not cancel the new event.
	c, _ := s.At(15, r, str("c"))
	if s.Cancel(a) {
		t.Fatal("stale ID cancelled a reused slot")
	}
	s.Run()
	if want := []string{"c", "b"}; !slices.Equal(r.log, want) {
		t.Fatalf("fired %v, want %v", r.log, want)
	}
	if s.Cancel(b) || s.Cancel(c) {
		t.Fatal("Cancel of a fired event = true")
	}
}

func TestRunUntil(t *testing.T) {
	s := New(1)
	r := &recorder{}
	s.At(5, r, str("at5"))
	s.At(10, r, str("at10"))
	s.At(15, r, str("at15"))
	s.RunUntil(10)
	if want := []string{"at5", "at10"}; !slices.Equal(r.log, want) {
		t.Fatalf("fired %v, want %v (events at the limit run)", r.log, want)
	}
	if s.Now() != 10 {
		t.Fatalf("Now = %v, want 10", s.Now())
	}
	s.RunUntil(12)
	if s.Now() != 12 || len(r.log) != 2 {
		t.Fatalf("Now = %v, fired %d; want clock moved to 12 with nothing fired", s.Now(), len(r.log))
	}
	s.RunUntil(100)
	if len(r.log) != 3 || s.Now() != 100 {
		t.Fatalf("fired %d, now %v; want 3 and 100", len(r.log), s.Now())
	}
}

func TestRunUntilSkipsCancelledHead(t *testing.T) {
	s := New(1)
	r := &recorder{}
	a, _ := s.At(5, r, str("a"))
	s.At(50, r, str("b"))
	s.Cancel(a)
	s.RunUntil(10)
	if len(r.log) != 0 || s.Now() != 10 {
		t.Fatalf("fired %v now %v: an event past the limit fired, or the clock is wrong", r.log, s.Now())
	}
}

type stopper struct{ s *Sim }

func (h stopper) Handle(Time, any) { h.s.Stop() }

func TestStop(t *testing.T) {
	s := New(1)
	r := &recorder{}
	s.At(1, r, str("a"))
	s.At(2, stopper{s}, nil)
	s.At(3, r, str("c"))
	s.RunUntil(10)
	if len(r.log) != 1 || s.Now() != 2 {
		t.Fatalf("fired %v now %v; want a, stopped at 2", r.log, s.Now())
	}
	s.RunUntil(10)
	if len(r.log) != 2 || s.Now() != 10 {
		t.Fatalf("after resume fired %v now %v", r.log, s.Now())
	}
}

func TestLaneOrderAndCancel(t *testing.T) {
	s := New(1)
	r := &recorder{}
	lane, err := s.NewLane(10)
	if err != nil {
		t.Fatal(err)
	}
	s.At(10, r, str("heap@10 first"))
	ids := []EventID{lane.Schedule(r, str("lane@10"))}
	s.At(10, r, str("heap@10 last"))
	s.RunUntil(3)
	ids = append(ids, lane.Schedule(r, str("lane@13")))
	ids = append(ids, lane.Schedule(r, str("lane@13 second")))
	s.At(13, r, str("heap@13"))
	s.Cancel(ids[1])
	s.Run()
	want := []string{"heap@10 first", "lane@10", "heap@10 last", "lane@13 second", "heap@13"}
	if !slices.Equal(r.log, want) {
		t.Fatalf("fired %v, want %v", r.log, want)
	}
	if s.Pending() != 0 {
		t.Fatalf("Pending = %d", s.Pending())
	}
}

// TestLaneAt checks Lane.At: in-order instants go on the ring, an earlier
// one goes to the heap, and all fire in (time, sequence) order with the
// heap's own events; a cancelled ring entry is skipped.
func TestLaneAt(t *testing.T) {
	s := New(1)
	r := &recorder{}
	lane, err := s.NewLane(0)
	if err != nil {
		t.Fatal(err)
	}
	at := func(when Time, name string) EventID {
		t.Helper()
		id, err := lane.At(when, r, str(name))
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	at(20, "lane@20")
	s.At(20, r, str("heap@20"))
	gone := at(25, "lane@25 cancelled")
	at(30, "lane@30")
	at(15, "lane@15 out of order") // before the lane's latest: to the heap
	at(30, "lane@30 second")       // equal to the latest: on the ring
	s.Cancel(gone)
	s.RunUntil(5)
	if _, err := lane.At(4, r, str("past")); !errors.Is(err, ErrPast) {
		t.Errorf("At(4) at 5: err = %v, want ErrPast", err)
	}
	if _, err := lane.At(6, nil, nil); err == nil {
		t.Error("At with a nil handler: no error")
	}
	s.Run()
	want := []string{"lane@15 out of order", "lane@20", "heap@20", "lane@30", "lane@30 second"}
	if !slices.Equal(r.log, want) {
		t.Fatalf("fired %v, want %v", r.log, want)
	}
	if s.Pending() != 0 {
		t.Fatalf("Pending = %d", s.Pending())
	}
}

func TestStreams(t *testing.T) {
	a1 := New(7).Stream("client/users")
	a2 := New(7).Stream("client/users")
	b := New(7).Stream("service/db")
	c := New(8).Stream("client/users")
	same, diffName, diffSeed := 0, 0, 0
	for i := 0; i < 100; i++ {
		x, y, z, w := a1.Uint64(), a2.Uint64(), b.Uint64(), c.Uint64()
		if x == y {
			same++
		}
		if x == z {
			diffName++
		}
		if x == w {
			diffSeed++
		}
	}
	if same != 100 || diffName != 0 || diffSeed != 0 {
		t.Fatalf("same %d/100, collisions with other name %d, other seed %d", same, diffName, diffSeed)
	}
	// Pin the generator: a change of algorithm or seeding would silently
	// change every experiment's output.
	got := New(1).Stream("x").Uint64()
	const want uint64 = 0xcd32d8c0af83f3f7
	if got != want {
		t.Fatalf("first draw of stream (1, x) = %#x, want %#x", got, want)
	}
}

// TestAgainstReference drives random schedules and cancellations through
// the engine and through a naive sorted list, and requires the same firing
// order.
func TestAgainstReference(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		rng := rand.New(rand.NewPCG(seed, 0))
		checkAgainstReference(t, rng.IntN, 2000)
	}
}

// FuzzAgainstReference decodes operations from the fuzzer's bytes.
func FuzzAgainstReference(f *testing.F) {
	f.Add([]byte{0, 5, 4, 1, 3, 7, 9, 2, 8, 0, 6, 6, 1, 9})
	f.Add([]byte("scheduling and cancelling timeouts on lanes"))
	f.Fuzz(func(t *testing.T, data []byte) {
		i := 0
		next := func(n int) int {
			if i >= len(data) {
				return 0
			}
			b := int(data[i])
			i++
			return b % n
		}
		checkAgainstReference(t, next, len(data)/2)
	})
}

type refEvent struct {
	at     Time
	seq    int
	name   int
	cancel bool
}

type tagHandler struct{ fired *[]int }

func (h tagHandler) Handle(_ Time, arg any) { *h.fired = append(*h.fired, *arg.(*int)) }

func checkAgainstReference(t *testing.T, intn func(int) int, ops int) {
	t.Helper()
	s := New(1)
	var fired []int
	h := tagHandler{&fired}
	lanes := []*Lane{}
	for _, d := range []time.Duration{0, 7, 50} {
		l, _ := s.NewLane(d)
		lanes = append(lanes, l)
	}
	var ref []*refEvent
	ids := map[int]EventID{}
	seq := 0
	for i := 0; i < ops; i++ {
		switch op := intn(10); {
		case op < 4:
			at := s.Now() + Time(intn(100))
			name := i
			id, err := s.At(at, h, &name)
			if err != nil {
				t.Fatal(err)
			}
			ids[name] = id
			seq++
			ref = append(ref, &refEvent{at: at, seq: seq, name: name})
		case op < 6:
			l := lanes[intn(len(lanes))]
			name := i
			ids[name] = l.Schedule(h, &name)
			seq++
			ref = append(ref, &refEvent{at: s.Now().Add(l.Delay()), seq: seq, name: name})
		case op < 7:
			// Lane.At with instants mostly in order (a slow drift) and
			// sometimes not, so both the ring and the heap take some.
			l := lanes[intn(len(lanes))]
			at := s.Now() + Time(i/4+intn(20))
			name := i
			id, err := l.At(at, h, &name)
			if err != nil {
				t.Fatal(err)
			}
			ids[name] = id
			seq++
			ref = append(ref, &refEvent{at: at, seq: seq, name: name})
		case op < 9 && len(ref) > 0:
			e := ref[intn(len(ref))]
			got := s.Cancel(ids[e.name])
			wantOK := !e.cancel && !slices.Contains(fired, e.name)
			if got != wantOK {
				t.Fatalf("Cancel(%d) = %v, want %v", e.name, got, wantOK)
			}
			e.cancel = e.cancel || got
		default:
			s.RunUntil(s.Now() + Time(intn(30)))
		}
	}
	s.Run()
	slices.SortStableFunc(ref, func(a, b *refEvent) int {
		if a.at != b.at {
			return int(a.at - b.at)
		}
		return a.seq - b.seq
	})
	var want []int
	for _, e := range ref {
		if !e.cancel {
			want = append(want, e.name)
		}
	}
	// Events fire in (time, seq) order overall; compare as sequences.
	if !slices.Equal(fired, want) {
		t.Fatalf("firing order differs from the reference:\n got %v\nwant %v", head(fired), head(want))
	}
}

func head(x []int) []int {
	if len(x) > 30 {
		return x[:30]
	}
	return x
}

type nop struct{}

func (nop) Handle(Time, any) {}

func TestSteadyStateAllocatesNothing(t *testing.T) {
	s := New(1)
	lane, _ := s.NewLane(time.Second)
	var h nop
	arg := new(int)
	// Warm up slabs and rings.
	for i := 0; i < 1000; i++ {
		s.After(time.Duration(i), h, arg)
		lane.Schedule(h, arg)
	}
	s.Run()
	allocs := testing.AllocsPerRun(1000, func() {
		id, _ := s.After(time.Millisecond, h, arg)
		to := lane.Schedule(h, arg)
		s.Step()
		s.Cancel(to)
		s.Cancel(id)
	})
	if allocs != 0 {
		t.Fatalf("steady state allocates %v per schedule/fire/cancel cycle, want 0", allocs)
	}
}

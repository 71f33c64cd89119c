package engine

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestBefore checks the branch-free comparison of the heap's sift-down
// against entry.less, on the edge values of both fields and on random
// pairs that often share an instant. Instants are never negative (the
// clock starts at 0 and the past is refused), which before relies on.
func TestBefore(t *testing.T) {
	ats := []Time{0, 1, 1<<32 - 1, 1 << 40, math.MaxInt64 - 1, math.MaxInt64}
	seqs := []uint64{0, 1, 1 << 32, math.MaxUint64 - 1, math.MaxUint64}
	var es []entry
	for _, at := range ats {
		for _, seq := range seqs {
			es = append(es, entry{at: at, seq: seq})
		}
	}
	for i := range es {
		for j := range es {
			a, b := &es[i], &es[j]
			want := uint64(0)
			if a.less(b) {
				want = 1
			}
			if got := before(a, b); got != want {
				t.Fatalf("before(%+v, %+v) = %d, want %d", *a, *b, got, want)
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		a := entry{at: Time(rng.Int64N(8)), seq: rng.Uint64N(4)}
		b := entry{at: Time(rng.Int64N(8)), seq: rng.Uint64N(4)}
		if (before(&a, &b) == 1) != a.less(&b) {
			t.Fatalf("before(%+v, %+v) disagrees with less", a, b)
		}
	}
}

// TestHeapOrder pops heaps of every size up to 40 (every shape of the last
// level, full and partial groups of four children) filled in random order,
// many of the entries sharing an instant, and checks they come out in
// (at, seq) order.
func TestHeapOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 1; n <= 40; n++ {
		for range 50 {
			var h eventHeap
			for i := range n {
				h.push(entry{at: Time(rng.IntN(5)), seq: uint64(rng.IntN(1000))<<8 | uint64(i)})
			}
			prev := h.pop()
			for len(h) > 0 {
				e := h.pop()
				if e.less(&prev) {
					t.Fatalf("n=%d: popped %+v after %+v", n, e, prev)
				}
				prev = e
			}
		}
	}
}

// TestHandlersScheduleAgainstReference has handlers schedule none, one or
// two events (on the heap, on a lane, by Lane.At), often at the instant
// being fired, and cancel others, so that the fired event's entry is
// replaced by its first follow-up (Sim.push) or removed (settle) in every
// combination; the firing order must equal a naive simulation's.
func TestHandlersScheduleAgainstReference(t *testing.T) {
	for seed := uint64(0); seed < 30; seed++ {
		checkHandlersAgainstReference(t, seed)
	}
}

type chainRef struct {
	at        Time
	seq, name int
	cancelled bool
	fired     bool
}

func checkHandlersAgainstReference(t *testing.T, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 9))
	plan := make([]int, 4000) // what event name n does when it fires
	for i := range plan {
		plan[i] = min(rng.IntN(10), 8) // 8: case 4 and 7 twice as often, to chain past 4000
	}
	delay := func(n, m int) Time { return Time((n*7919 + int(seed)) % m) }

	// The engine.
	s := New(1)
	var lanes []*Lane
	for _, d := range []time.Duration{0, 3, 20} {
		l, _ := s.NewLane(d)
		lanes = append(lanes, l)
	}
	var got []int
	ids := []EventID{}
	var h HandlerFunc
	add := func(id EventID, err error) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	h = func(now Time, arg any) {
		n := arg.(int)
		got = append(got, n)
		if len(ids) >= len(plan) {
			return
		}
		switch plan[n] {
		case 2:
			add(s.At(now+delay(n, 13), h, len(ids)))
		case 3:
			add(lanes[n%3].Schedule(h, len(ids)), nil)
		case 4:
			add(s.At(now, h, len(ids)))
			add(s.At(now+delay(n, 5), h, len(ids)))
		case 1:
			s.Cancel(ids[n*31%len(ids)])
			add(s.At(now+delay(n, 3), h, len(ids)))
		case 5:
			s.Cancel(ids[n*31%len(ids)])
		case 6:
			add(lanes[n%3].At(now+delay(n, 9), h, len(ids)))
		case 7, 8:
			add(lanes[n%3].Schedule(h, len(ids)), nil)
			add(s.At(now, h, len(ids)))
		}
	}
	for i := 0; i < 20; i++ {
		add(s.At(Time(i%4), h, len(ids)))
	}
	s.Run()

	// The reference: every pending event in a list, the earliest (at, seq)
	// fired each time.
	var ref []*chainRef
	var want []int
	seq := 0
	sched := func(at Time) {
		seq++
		ref = append(ref, &chainRef{at: at, seq: seq, name: len(ref)})
	}
	for i := 0; i < 20; i++ {
		sched(Time(i % 4))
	}
	laneDelay := []Time{0, 3, 20}
	for {
		var e *chainRef
		for _, r := range ref {
			if !r.cancelled && !r.fired && (e == nil || r.at < e.at || r.at == e.at && r.seq < e.seq) {
				e = r
			}
		}
		if e == nil {
			break
		}
		e.fired = true
		n, now := e.name, e.at
		want = append(want, n)
		if len(ref) >= len(plan) {
			continue
		}
		switch plan[n] {
		case 2:
			sched(now + delay(n, 13))
		case 3:
			sched(now + laneDelay[n%3])
		case 4:
			sched(now)
			sched(now + delay(n, 5))
		case 1:
			if v := ref[n*31%len(ref)]; !v.fired {
				v.cancelled = true
			}
			sched(now + delay(n, 3))
		case 5:
			if v := ref[n*31%len(ref)]; !v.fired {
				v.cancelled = true
			}
		case 6:
			sched(now + delay(n, 9))
		case 7, 8:
			sched(now + laneDelay[n%3])
			sched(now)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("seed %d: firing order differs from the reference:\n got %v\nwant %v", seed, head(got), head(want))
	}
	if len(got) < 2000 {
		t.Fatalf("seed %d: only %d events fired; the plan should chain far more", seed, len(got))
	}
}

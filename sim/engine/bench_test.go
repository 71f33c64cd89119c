package engine

import (
	"container/heap"
	"math/rand/v2"
	"testing"
	"time"
)

// holder is the classic hold-model component: every event reschedules
// itself a random (exponential, mean 1 ms) time later, so the number of
// pending events stays constant.
type holder struct {
	s   *Sim
	rng *rand.Rand
}

func (h *holder) Handle(Time, any) {
	h.s.After(time.Duration(h.rng.ExpFloat64()*1e6), h, nil)
}

// BenchmarkHold is the hold model with 1e5 pending events: one op is one
// event fired plus one scheduled.
func BenchmarkHold(b *testing.B) {
	for _, n := range []int{1e3, 1e5} {
		b.Run(itoa(n), func(b *testing.B) {
			s := New(1)
			h := &holder{s: s, rng: s.Stream("hold")}
			for i := 0; i < n; i++ {
				s.After(time.Duration(h.rng.ExpFloat64()*1e6), h, nil)
			}
			for i := 0; i < n; i++ { // reach the steady-state heap shape
				s.Step()
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s.Step()
			}
		})
	}
}

// holdItem and holdHeap are the same hold model on container/heap, the
// baseline the typed heap is measured against.
type holdItem struct {
	at  int64
	seq uint64
}
type holdHeap []holdItem

func (q holdHeap) Len() int { return len(q) }
func (q holdHeap) Less(i, j int) bool {
	return q[i].at < q[j].at || (q[i].at == q[j].at && q[i].seq < q[j].seq)
}
func (q holdHeap) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *holdHeap) Push(x any)   { *q = append(*q, x.(holdItem)) }
func (q *holdHeap) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}

func BenchmarkHoldContainerHeap(b *testing.B) {
	const n = 1e5
	rng := rand.New(rand.NewPCG(1, 2))
	q := make(holdHeap, 0, n)
	var seq uint64
	for i := 0; i < n; i++ {
		seq++
		heap.Push(&q, holdItem{int64(rng.ExpFloat64() * 1e6), seq})
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e := heap.Pop(&q).(holdItem)
		seq++
		heap.Push(&q, holdItem{e.at + int64(rng.ExpFloat64()*1e6), seq})
	}
}

// timerModel: requests arrive (Poisson, 1 per µs on average), each schedules
// its completion (exponential, mean 50 µs) and a 1 ms timeout on a lane; the
// completion almost always comes first and cancels the timeout. This is the
// shape of every call in the service model.
type timerModel struct {
	s        *Sim
	rng      *rand.Rand
	lane     *Lane
	arrive   HandlerFunc
	complete HandlerFunc
	timeout  HandlerFunc
	free     []*timerReq
	done     int
	timedOut int
}

type timerReq struct{ timer EventID }

func newTimerModel(useLane bool) *timerModel {
	s := New(1)
	m := &timerModel{s: s, rng: s.Stream("timers")}
	m.lane, _ = s.NewLane(time.Millisecond)
	m.arrive = func(now Time, _ any) {
		var r *timerReq
		if n := len(m.free); n > 0 {
			r = m.free[n-1]
			m.free = m.free[:n-1]
		} else {
			r = new(timerReq)
		}
		s.After(time.Duration(m.rng.ExpFloat64()*50e3), m.complete, r)
		if useLane {
			r.timer = m.lane.Schedule(m.timeout, r)
		} else {
			r.timer, _ = s.After(time.Millisecond, m.timeout, r)
		}
		s.After(time.Duration(m.rng.ExpFloat64()*1e3), m.arrive, nil)
	}
	m.complete = func(now Time, arg any) {
		r := arg.(*timerReq)
		if s.Cancel(r.timer) {
			m.done++
		}
		m.free = append(m.free, r)
	}
	m.timeout = func(now Time, arg any) { m.timedOut++ }
	s.After(0, m.arrive, nil)
	return m
}

// BenchmarkTimeouts reports the cost per request of one arrival, one
// completion and one scheduled-then-cancelled timeout.
func BenchmarkTimeouts(b *testing.B) {
	for _, c := range []struct {
		name string
		lane bool
	}{{"lane", true}, {"heap", false}} {
		b.Run(c.name, func(b *testing.B) {
			m := newTimerModel(c.lane)
			for m.done < 10000 {
				m.s.Step()
			}
			b.ReportAllocs()
			b.ResetTimer()
			start := m.done + m.timedOut
			for m.done+m.timedOut-start < b.N {
				m.s.Step()
			}
		})
	}
}

func itoa(n int) string {
	switch n {
	case 1e3:
		return "pending=1e3"
	case 1e5:
		return "pending=1e5"
	}
	return "pending=?"
}

package lifo

import (
	"testing"
	"time"
)

// FuzzQueue checks Queue against a slice model over arbitrary operations.
func FuzzQueue(f *testing.F) {
	f.Add(uint8(3), []byte{0, 0, 0, 0, 1, 2, 0, 3, 4, 1, 1, 1})
	f.Add(uint8(1), []byte{0, 0, 2, 2, 0, 5, 4})
	f.Fuzz(func(t *testing.T, capacity uint8, ops []byte) {
		c := int(capacity%8) + 1
		q, _ := NewQueue[int](c)
		var model []Entry[int]
		for i, b := range ops {
			now := time.Duration(i) * ms
			switch b % 6 {
			case 0, 5:
				e := Entry[int]{Value: i, EnqueuedAt: now, Deadline: now + time.Duration(b/6)*ms}
				ok := q.PushBack(e)
				if ok != (len(model) < c) {
					t.Fatalf("op %d: PushBack ok %v with %d/%d", i, ok, len(model), c)
				}
				if ok {
					model = append(model, e)
				}
			case 1:
				e, ok := q.PopFront()
				if ok != (len(model) > 0) || ok && e != model[0] {
					t.Fatalf("op %d: PopFront %v %v", i, e, ok)
				}
				if ok {
					model = model[1:]
				}
			case 2:
				e, ok := q.PopBack()
				if ok != (len(model) > 0) || ok && e != model[len(model)-1] {
					t.Fatalf("op %d: PopBack %v %v", i, e, ok)
				}
				if ok {
					model = model[:len(model)-1]
				}
			case 3:
				e, ok := q.PopExpired(now)
				want := len(model) > 0 && model[0].Expired(now)
				if ok != want || ok && e != model[0] {
					t.Fatalf("op %d: PopExpired %v %v, want %v", i, e, ok, want)
				}
				if ok {
					model = model[1:]
				}
			case 4:
				f, okf := q.Front()
				bk, okb := q.Back()
				if okf != (len(model) > 0) || okb != okf {
					t.Fatalf("op %d: Front/Back ok %v %v", i, okf, okb)
				}
				if okf && (f != model[0] || bk != model[len(model)-1]) {
					t.Fatalf("op %d: Front/Back %v %v", i, f, bk)
				}
			}
			if q.Len() != len(model) {
				t.Fatalf("op %d: Len %d, model %d", i, q.Len(), len(model))
			}
			for j := range model {
				if q.At(j) != model[j] {
					t.Fatalf("op %d: At(%d) %v, model %v", i, j, q.At(j), model[j])
				}
			}
		}
	})
}

// FuzzAdaptiveQueue checks AdaptiveQueue's invariants over arbitrary
// pushes and pops: nothing is lost (pushed = delivered + expired + queued),
// nothing expired is delivered, every deadline is at most the queue
// timeout after the push, FIFO delivers the oldest live entry and LIFO the
// newest, and the mode is LIFO only when the queue has not been empty for
// longer than Interval (LIFOThreshold off).
func FuzzAdaptiveQueue(f *testing.F) {
	f.Add([]byte{0, 0, 0, 200, 0, 0, 7, 7, 7, 128, 128, 128, 128})
	f.Add([]byte{10, 20, 30, 40, 50, 60, 70, 80, 90, 200, 210, 220, 230})
	f.Fuzz(func(t *testing.T, ops []byte) {
		cfg := DefaultConfig()
		a, _ := NewAdaptiveQueue[int](6, cfg)
		var now time.Duration
		lastEmpty := time.Duration(0)
		var delivered, expired uint64
		for i, b := range ops {
			now += time.Duration(b&0x3f) * ms
			if a.Len() == 0 {
				lastEmpty = now
			}
			if b < 128 {
				n := a.Len()
				if a.Push(now, i, now+time.Duration(b)*ms) {
					back, _ := a.Queue().Back()
					limit := now + cfg.Interval
					if now-lastEmpty > cfg.Interval && n > 0 {
						limit = now + cfg.ShortTimeout
					}
					if back.Deadline > limit {
						t.Fatalf("op %d: deadline %v beyond %v", i, back.Deadline, limit)
					}
				}
				continue
			}
			// Pop until Deliver or Empty.
			for {
				mode := a.Mode(now)
				if mode == LIFO && !(a.Len() > 0 && now-lastEmpty > cfg.Interval) {
					t.Fatalf("op %d at %v: LIFO with Len %d, last empty %v", i, now, a.Len(), lastEmpty)
				}
				var oldestLive, newest Entry[int]
				hasLive := false
				q := a.Queue()
				for j := 0; j < q.Len(); j++ {
					if !hasLive && !q.At(j).Expired(now) {
						oldestLive, hasLive = q.At(j), true
					}
				}
				if q.Len() > 0 {
					newest = q.At(q.Len() - 1)
				}
				frontExpired := q.Len() > 0 && q.At(0).Expired(now)
				e, r := a.Next(now)
				if r == Deliver {
					delivered++
					if e.Expired(now) {
						t.Fatalf("op %d: delivered an expired entry", i)
					}
					if mode == FIFO && (!hasLive || e != oldestLive) {
						t.Fatalf("op %d: FIFO delivered %v, oldest live %v", i, e, oldestLive)
					}
					if mode == LIFO && !frontExpired && e != newest {
						t.Fatalf("op %d: LIFO delivered %v, newest %v", i, e, newest)
					}
				}
				if r == Expired {
					expired++
					if !e.Expired(now) {
						t.Fatalf("op %d: dropped a live entry", i)
					}
				}
				if a.Len() == 0 {
					lastEmpty = now
				}
				if r != Expired {
					break
				}
			}
			st := a.Stats()
			if st.Pushed != delivered+expired+uint64(a.Len()) || st.Expired != expired || st.DeliveredFIFO+st.DeliveredLIFO != delivered {
				t.Fatalf("op %d: stats %+v, delivered %d expired %d len %d", i, st, delivered, expired, a.Len())
			}
		}
	})
}

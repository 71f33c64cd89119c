package engine

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestBefore checks the branch-free comparison of the heap's sift-down
// against entry.less, on the edge values of both fields and on random
// pairs that often share an instant.
func TestBefore(t *testing.T) {
	ats := []Time{math.MinInt64, -1, 0, 1, 1 << 40, math.MaxInt64 - 1, math.MaxInt64}
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
		a := entry{at: Time(rng.Int64N(8) - 4), seq: rng.Uint64N(4)}
		b := entry{at: Time(rng.Int64N(8) - 4), seq: rng.Uint64N(4)}
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

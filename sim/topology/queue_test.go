package topology

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// contents lists the queue's requests, oldest first, by their step field
// (used here as a label).
func contents(q *fifo) []int {
	var out []int
	for i := 0; i < q.n; i++ {
		if a := q.buf[q.slot(i)]; a != nil {
			out = append(out, a.step)
		}
	}
	return out
}

// TestFIFORemoveSteps walks the queue through pushes, pops and removals
// from the head, the middle and the tail.
func TestFIFORemoveSteps(t *testing.T) {
	var q fifo
	reqs := make([]*attempt, 8)
	for i := range reqs {
		reqs[i] = &attempt{step: i}
	}
	type step struct {
		op   string // push, pop or remove
		req  int
		want []int // contents after the step
	}
	steps := []step{
		{"push", 0, []int{0}},
		{"push", 1, []int{0, 1}},
		{"push", 2, []int{0, 1, 2}},
		{"push", 3, []int{0, 1, 2, 3}},
		{"remove", 1, []int{0, 2, 3}}, // middle: a hole
		{"remove", 0, []int{2, 3}},    // head: the hole behind it goes too
		{"push", 4, []int{2, 3, 4}},   //
		{"remove", 4, []int{2, 3}},    // tail
		{"pop", 2, []int{3}},          // oldest first
		{"push", 5, []int{3, 5}},      //
		{"remove", 3, []int{5}},       //
		{"remove", 5, nil},            // empty
		{"push", 6, []int{6}},         // reusable
		{"pop", 6, nil},               //
		{"push", 7, []int{7}},         //
		{"remove", 7, nil},            //
	}
	for i, s := range steps {
		switch s.op {
		case "push":
			q.push(reqs[s.req])
		case "pop":
			if got := q.pop(); got != reqs[s.req] {
				t.Fatalf("step %d: pop %d, want %d", i, got.step, s.req)
			}
		case "remove":
			q.remove(reqs[s.req])
		}
		if got := contents(&q); !slices.Equal(got, s.want) || q.len() != len(s.want) {
			t.Fatalf("step %d (%s %d): contents %v len %d, want %v", i, s.op, s.req, got, q.len(), s.want)
		}
		if q.n > 0 && (q.front() == nil || q.buf[q.slot(q.n-1)] == nil) {
			t.Fatalf("step %d: the buffer starts or ends with a hole", i)
		}
	}
}

// TestFIFORemoveRandom compares the queue with a slice under a random
// mix of operations, through growth and compaction, and checks that the
// buffer stays within a constant factor of the live requests.
func TestFIFORemoveRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var q fifo
	var model []*attempt
	for i := 0; i < 100000; i++ {
		// More pushes than pops: the queue grows, and removals leave holes
		// behind its head that only compaction reclaims.
		switch r := rng.IntN(10); {
		case r < 6 || len(model) == 0:
			a := &attempt{step: i}
			q.push(a)
			model = append(model, a)
		case r < 7:
			if got := q.pop(); got != model[0] {
				t.Fatalf("op %d: pop %d, want %d", i, got.step, model[0].step)
			}
			model = model[1:]
		default:
			j := rng.IntN(len(model))
			q.remove(model[j])
			model = slices.Delete(model, j, j+1)
		}
		if q.len() != len(model) {
			t.Fatalf("op %d: len %d, want %d", i, q.len(), len(model))
		}
		if q.n > 64 && q.n > 4*q.live {
			t.Fatalf("op %d: %d slots for %d requests: not compacted", i, q.n, q.live)
		}
	}
	for len(model) > 0 {
		if got := q.pop(); got != model[0] {
			t.Fatalf("drain: pop %d, want %d", got.step, model[0].step)
		}
		model = model[1:]
	}
}

// Removal allocates nothing once the buffer has grown.
func TestFIFORemoveAllocs(t *testing.T) {
	var q fifo
	reqs := make([]*attempt, 100)
	for i := range reqs {
		reqs[i] = &attempt{}
	}
	cycle := func() {
		for _, a := range reqs {
			q.push(a)
		}
		for i := 0; i < len(reqs); i += 2 {
			q.remove(reqs[i])
		}
		for q.len() > 0 {
			q.pop()
		}
	}
	cycle()
	if n := testing.AllocsPerRun(100, cycle); n != 0 {
		t.Errorf("%v allocations per cycle, want 0", n)
	}
}

package engine

import (
	"math/bits"

	"github.com/ressim/ressim/sim/internal/wide"
)

// entry is a heap element: an event's firing time and sequence number, and a
// reference to its record (or, with laneBit set, to a lane's head).
type entry struct {
	at  Time
	seq uint64
	idx uint32 // record index, or laneBit|lane index
	gen uint32 // record generation when scheduled
}

const laneBit = 1 << 31

func (a *entry) less(b *entry) bool {
	return a.at < b.at || (a.at == b.at && a.seq < b.seq)
}

// eventHeap is a 4-ary min-heap ordered by (at, seq). A 4-ary heap halves
// the depth of a binary heap and keeps a node's children in one cache line.
type eventHeap []entry

func (h *eventHeap) push(e entry) {
	*h = append(*h, e)
	s := *h
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) >> 2
		if !e.less(&s[p]) {
			break
		}
		s[i] = s[p]
		i = p
	}
	s[i] = e
}

// insert adds e: in the vacant root's place if root is set (the root
// entry is stale, see Sim.hole, or pop has just taken it), else at the
// end (push). The sift-down from the root is written here, not called:
// Sim.push, inlined into At, After and the lanes, then makes one call
// where it made two (-16 M instructions in the retry storm).
//
// Where a node has all four children, the smallest is picked by a
// branch-free tournament (before): the keys of a heap are in random
// order, so a branch per comparison is mispredicted about half the time,
// and picking among four by branches costs more than the loads.
func (h *eventHeap) insert(e entry, root bool) {
	if !root {
		h.push(e)
		return
	}
	s := *h
	n := len(s)
	// hole is the vacant node and c its first child. The nodes are reached
	// through pointers and a slice of the four children indexed by a
	// two-bit number, which the compiler proves in bounds: the index
	// tests it can prove away cost two instructions each, three or four
	// per level (docs/performance.md).
	hole := &s[0]
	c := 1
	for c+3 < n {
		q := s[c : c+4 : c+4]
		m01 := before(&q[1], &q[0])
		m23 := 2 + before(&q[3], &q[2])
		k := m01 ^ ((m01 ^ m23) & -before(&q[m23&3], &q[m01&1]))
		m := &q[k&3]
		if !m.less(&e) {
			*hole = e
			return
		}
		*hole = *m
		hole = m
		c = 4*(c+int(k&3)) + 1
	}
	if c < n { // one to three children, compared without a loop
		m := &s[c]
		if c+1 < n && s[c+1].less(m) {
			m = &s[c+1]
		}
		if c+2 < n && s[c+2].less(m) {
			m = &s[c+2]
		}
		if m.less(&e) {
			*hole = *m
			hole = m
		}
	}
	*hole = e
}

// pop removes and returns the minimum. The heap must not be empty.
func (h *eventHeap) pop() entry {
	s := *h
	top := s[0]
	n := len(s) - 1
	last := s[n]
	*h = s[:n]
	if n > 0 {
		h.insert(last, true)
	}
	return top
}

// before is a.less(b) as 1 or 0, computed without a branch: the borrow out
// of the 128-bit subtraction (a.at, a.seq) - (b.at, b.seq). The instants
// are compared as unsigned numbers, which orders them as signed ones
// because no entry's instant is negative: the clock starts at 0 and
// nothing is scheduled before it (At, After and the lanes refuse the
// past). Flipping the sign bits, as before did once, cost two
// instructions per comparison, three comparisons per level of the heap.
// WebAssembly has no subtract-with-borrow (bits.Sub64 is eight
// instructions there): it compares (package wide).
func before(a, b *entry) uint64 {
	if wide.Wasm {
		return wide.Less(uint64(a.at), a.seq, uint64(b.at), b.seq)
	}
	_, borrow := bits.Sub64(a.seq, b.seq, 0)
	_, borrow = bits.Sub64(uint64(a.at), uint64(b.at), borrow)
	return borrow
}

package engine

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

// pop removes and returns the minimum. The heap must not be empty. The
// sift-down is a function of its own: built without a profile, the event
// loop runs the retry storm 6 % faster that way (docs/performance.md).
func (h *eventHeap) pop() entry {
	s := *h
	top := s[0]
	n := len(s) - 1
	last := s[n]
	*h = s[:n]
	if n > 0 {
		h.siftDown(last)
	}
	return top
}

// siftDown places last, the entry removed from the end, from the root
// down.
func (h *eventHeap) siftDown(last entry) {
	s := *h
	n := len(s)
	i := 0
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m := c
		end := c + 4
		if end > n {
			end = n
		}
		for j := c + 1; j < end; j++ {
			if s[j].less(&s[m]) {
				m = j
			}
		}
		if !s[m].less(&last) {
			break
		}
		s[i] = s[m]
		i = m
	}
	s[i] = last
}

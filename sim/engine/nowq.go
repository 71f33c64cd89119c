package engine

// nowQueue is a FIFO ring of the entries scheduled for the instant they
// were scheduled at. Such entries come in (time, sequence) order by
// construction (the clock does not move while one is pending, and every
// new entry has a larger sequence number), so a ring keeps them sorted
// and they need no heap: in the retry storm half the events are answers
// and retries for the current instant, and each cost a sift up to the
// root and a sift down from it.
type nowQueue struct {
	ring []entry // len is 0 or a power of two
	head int
	n    int
}

func (q *nowQueue) push(e entry) {
	if q.n == len(q.ring) {
		q.grow()
	}
	q.ring[(q.head+q.n)&(len(q.ring)-1)] = e
	q.n++
}

// pop removes and returns the head. The queue must not be empty.
func (q *nowQueue) pop() entry {
	e := q.ring[q.head]
	q.head = (q.head + 1) & (len(q.ring) - 1)
	q.n--
	return e
}

func (q *nowQueue) grow() {
	ring := make([]entry, max(16, 2*len(q.ring)))
	for i := 0; i < q.n; i++ {
		ring[i] = q.ring[(q.head+i)&(len(q.ring)-1)]
	}
	q.ring, q.head = ring, 0
}

package bulkhead

import "time"

type waiterState uint8

const (
	waiting waiterState = iota // may be granted
	lapsed                     // skipped by Release after its WaitUntil; awaits Expire or Cancel
	done                       // granted, expired or cancelled
)

type waiter struct {
	enqueued time.Duration
	until    time.Duration // min(enqueue + max wait, deadline)
	deadline time.Duration
	state    waiterState
}

// waitQueue is a FIFO of waiters in a ring buffer whose length is a power of
// two. The entry at ring offset k (from head) has ticket headID + k, so a
// ticket is found in O(1). Resolved entries leave the ring only from its
// head.
type waitQueue struct {
	buf     []waiter
	head    int    // ring index of the oldest entry
	n       int    // entries in the ring, resolved or not
	headID  Ticket // ticket of buf[head]
	scan    int    // offset before which no entry is waiting
	waiting int    // entries in state waiting
}

func newWaitQueue(capacity int) waitQueue {
	c := 4
	for c < capacity {
		c *= 2
	}
	return waitQueue{buf: make([]waiter, c), headID: 1}
}

func (q *waitQueue) at(k int) *waiter { return &q.buf[(q.head+k)&(len(q.buf)-1)] }

// push appends a waiting entry and returns its ticket.
func (q *waitQueue) push(w waiter) Ticket {
	if q.n == len(q.buf) {
		nb := make([]waiter, 2*len(q.buf))
		for k := range q.n {
			nb[k] = *q.at(k)
		}
		q.buf, q.head = nb, 0
	}
	*q.at(q.n) = w
	q.n++
	q.waiting++
	return q.headID + Ticket(q.n-1)
}

// find returns the entry of ticket t, or nil if it has left the ring.
func (q *waitQueue) find(t Ticket) *waiter {
	if t < q.headID || t >= q.headID+Ticket(q.n) {
		return nil
	}
	return q.at(int(t - q.headID))
}

// popLive marks the oldest live waiter done and returns it: the first
// waiting entry with now < until. Waiting entries met on the way whose
// until has passed become lapsed.
func (q *waitQueue) popLive(now time.Duration) (Ticket, waiter, bool) {
	for k := q.scan; k < q.n; k++ {
		w := q.at(k)
		if w.state != waiting {
			continue
		}
		q.scan = k + 1
		q.waiting--
		if now >= w.until {
			w.state = lapsed
			continue
		}
		w.state = done
		t := q.headID + Ticket(k)
		got := *w
		q.compact()
		return t, got, true
	}
	q.scan = q.n
	q.compact()
	return 0, waiter{}, false
}

// remove resolves ticket t if it has not been granted or removed yet, and
// returns the entry.
func (q *waitQueue) remove(t Ticket) (waiter, bool) {
	w := q.find(t)
	if w == nil || w.state == done {
		return waiter{}, false
	}
	if w.state == waiting {
		q.waiting--
	}
	w.state = done
	got := *w
	q.compact()
	return got, true
}

// compact drops resolved entries from the head of the ring.
func (q *waitQueue) compact() {
	for q.n > 0 && q.at(0).state == done {
		q.head = (q.head + 1) & (len(q.buf) - 1)
		q.headID++
		q.n--
		if q.scan > 0 {
			q.scan--
		}
	}
}

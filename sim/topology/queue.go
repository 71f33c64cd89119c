package topology

import (
	"time"

	"github.com/ressim/ressim/sim/engine"
)

// fifo is a growable ring buffer of requests that also supports removal
// from the middle, for a deadline-aware queue. A removed request leaves a
// hole (nil) that pop skips; every request records its sequence number
// (attempt.qseq), so finding its slot is O(1). The buffer never starts or
// ends with a hole. A removal compacts it when holes outnumber live
// requests three to one, so that after a removal its slots in use stay
// within a constant factor of len() (or 64) and removal is amortised O(1).
// A pop does not compact, which keeps a plain FIFO's pop small enough to
// inline: it drops the holes it reaches at the head, each once, so after
// pops the ratio may exceed the bound until the next removal. Nothing
// allocates once the buffer has grown to its working size.
type fifo struct {
	buf     []*attempt // len is a power of two, or 0
	head    int
	n       int    // slots in use from head, holes included
	live    int    // requests in the queue
	headSeq uint64 // sequence number of the request at buf[head]
}

// len is the number of requests in the queue (holes excluded).
func (q *fifo) len() int { return q.live }

func (q *fifo) slot(i int) int { return (q.head + i) & (len(q.buf) - 1) }

func (q *fifo) push(r *attempt) {
	if q.n == len(q.buf) {
		q.grow()
	}
	r.qseq = q.headSeq + uint64(q.n)
	q.buf[q.slot(q.n)] = r
	q.n++
	q.live++
}

// front returns the oldest request; the queue must not be empty.
func (q *fifo) front() *attempt { return q.buf[q.head] }

// pop removes the oldest request; the queue must not be empty. Holes
// exist only if a request was removed from the middle, so a queue whose
// every slot is live (a plain FIFO) skips the trim.
func (q *fifo) pop() *attempt {
	r := q.buf[q.head]
	q.advance()
	q.live--
	if q.n != q.live {
		q.trim()
	}
	return r
}

// remove takes r, which must be in the queue, out of it.
func (q *fifo) remove(r *attempt) {
	q.buf[q.slot(int(r.qseq-q.headSeq))] = nil
	q.live--
	q.trim()
	if q.n > 64 && q.n > 4*q.live {
		q.compact()
	}
}

// advance drops the head slot.
func (q *fifo) advance() {
	q.buf[q.head] = nil
	q.head = (q.head + 1) & (len(q.buf) - 1)
	q.headSeq++
	q.n--
}

// trim drops holes at both ends.
func (q *fifo) trim() {
	for q.n > 0 && q.buf[q.head] == nil {
		q.advance()
	}
	for q.n > 0 && q.buf[q.slot(q.n-1)] == nil {
		q.n--
	}
}

// compact closes the holes, keeping the order, and renumbers the requests.
func (q *fifo) compact() {
	j := 0
	for i := 0; i < q.n; i++ {
		r := q.buf[q.slot(i)]
		if r == nil {
			continue
		}
		q.buf[q.slot(i)] = nil
		q.buf[q.slot(j)] = r
		r.qseq = q.headSeq + uint64(j)
		j++
	}
	q.n = j
}

// grow doubles the buffer, which is full. Two copies, where a loop
// over the slots was, keep it small enough that push, which holds it,
// inlines into enqueue (push's cost is 80, the inliner's budget: -7 M
// instructions in the retry storm, -8 M in mm10).
func (q *fifo) grow() {
	buf := make([]*attempt, max(2*len(q.buf), 64))
	// It grows only when full: the ring is buf[head:] then buf[:head].
	copy(buf[copy(buf, q.buf[q.head:]):], q.buf[:q.head])
	q.buf, q.head = buf, 0
}

// oldestQueued returns the age at now of the oldest request waiting in
// any of the service's instance queues (adaptive LIFO's included), from
// its arrival at the instance; 0 when every queue is empty. A request
// whose propagated deadline passed while it waits (abandonment
// at_dequeue) still holds its place and counts. Cost: one look per
// instance.
func (s *service) oldestQueued(now engine.Time) time.Duration {
	var oldest time.Duration
	for _, in := range s.insts {
		var a *attempt
		if q := in.adm.lifo; q != nil {
			if e, ok := q.Queue().Front(); ok {
				a = e.Value
			}
		} else if in.queue.len() > 0 {
			a = in.queue.front()
		}
		if a != nil {
			oldest = max(oldest, now.Sub(a.arrived))
		}
	}
	return oldest
}

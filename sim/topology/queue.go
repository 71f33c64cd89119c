package topology

// fifo is a growable ring buffer of requests.
type fifo struct {
	buf  []*attempt // len is a power of two, or 0
	head int
	n    int
}

func (q *fifo) len() int { return q.n }

func (q *fifo) push(r *attempt) {
	if q.n == len(q.buf) {
		q.grow()
	}
	q.buf[(q.head+q.n)&(len(q.buf)-1)] = r
	q.n++
}

// pop removes the oldest request; the queue must not be empty.
func (q *fifo) pop() *attempt {
	r := q.buf[q.head]
	q.buf[q.head] = nil
	q.head = (q.head + 1) & (len(q.buf) - 1)
	q.n--
	return r
}

func (q *fifo) grow() {
	size := 2 * len(q.buf)
	if size == 0 {
		size = 64
	}
	buf := make([]*attempt, size)
	for i := 0; i < q.n; i++ {
		buf[i] = q.buf[(q.head+i)&(len(q.buf)-1)]
	}
	q.buf, q.head = buf, 0
}

package lifo

import (
	"fmt"
	"time"
)

// Entry is one queued request.
type Entry[T any] struct {
	// Value is the caller's request.
	Value T
	// EnqueuedAt is the instant the request joined the queue.
	EnqueuedAt time.Duration
	// Deadline is the instant from which the request is expired and must
	// be dropped rather than served.
	Deadline time.Duration
}

// Expired reports whether the entry's deadline has been reached at now.
func (e Entry[T]) Expired(now time.Duration) bool { return now >= e.Deadline }

// Queue is a bounded double-ended queue on a ring buffer: the front holds
// the oldest entry, the back the newest. FIFO pops the front, LIFO the
// back. It does not allocate after NewQueue. The zero value is not usable.
type Queue[T any] struct {
	buf  []Entry[T]
	head int // index of the front entry
	n    int
}

// NewQueue returns an empty queue holding at most capacity entries, or an
// error wrapping ErrInvalidConfig if capacity < 1.
func NewQueue[T any](capacity int) (*Queue[T], error) {
	if capacity < 1 {
		return nil, fmt.Errorf("lifo.NewQueue: %w: capacity %d: must be at least 1", ErrInvalidConfig, capacity)
	}
	return &Queue[T]{buf: make([]Entry[T], capacity)}, nil
}

// Len returns the number of entries.
func (q *Queue[T]) Len() int { return q.n }

// Cap returns the capacity.
func (q *Queue[T]) Cap() int { return len(q.buf) }

func (q *Queue[T]) index(i int) int {
	i += q.head
	if i >= len(q.buf) {
		i -= len(q.buf)
	}
	return i
}

// PushBack appends e at the back (the new end). It reports false, leaving
// the queue unchanged, when the queue is full.
func (q *Queue[T]) PushBack(e Entry[T]) bool {
	if q.n == len(q.buf) {
		return false
	}
	q.buf[q.index(q.n)] = e
	q.n++
	return true
}

// PopFront removes and returns the oldest entry; false if empty.
func (q *Queue[T]) PopFront() (Entry[T], bool) {
	var zero Entry[T]
	if q.n == 0 {
		return zero, false
	}
	e := q.buf[q.head]
	q.buf[q.head] = zero // release references
	q.head = q.index(1)
	q.n--
	return e, true
}

// PopBack removes and returns the newest entry; false if empty.
func (q *Queue[T]) PopBack() (Entry[T], bool) {
	var zero Entry[T]
	if q.n == 0 {
		return zero, false
	}
	i := q.index(q.n - 1)
	e := q.buf[i]
	q.buf[i] = zero
	q.n--
	return e, true
}

// Front returns the oldest entry without removing it; false if empty.
func (q *Queue[T]) Front() (Entry[T], bool) {
	if q.n == 0 {
		return Entry[T]{}, false
	}
	return q.buf[q.head], true
}

// Back returns the newest entry without removing it; false if empty.
func (q *Queue[T]) Back() (Entry[T], bool) {
	if q.n == 0 {
		return Entry[T]{}, false
	}
	return q.buf[q.index(q.n-1)], true
}

// At returns the i-th entry from the front (0 is the oldest). It panics if
// i is out of range, like a slice index.
func (q *Queue[T]) At(i int) Entry[T] {
	if i < 0 || i >= q.n {
		panic(fmt.Sprintf("lifo: Queue.At(%d) with Len %d", i, q.n))
	}
	return q.buf[q.index(i)]
}

// PopExpired removes and returns the front (oldest) entry if it has
// expired at now; otherwise it returns false and leaves the queue alone.
// Call it in a loop to drop every expired entry at the old end; it stops
// at the first live one, so an entry with a later deadline shields newer
// expired ones behind it (they are caught when popped).
func (q *Queue[T]) PopExpired(now time.Duration) (Entry[T], bool) {
	if q.n == 0 || !q.buf[q.head].Expired(now) {
		return Entry[T]{}, false
	}
	return q.PopFront()
}

package breaker

import "time"

// class is how one call lands in the window.
type class uint8

const (
	success class = iota
	failure
	slow
)

func (c *Counts) add(k class, sign int) {
	c.Calls += sign
	switch k {
	case failure:
		c.Failures += sign
	case slow:
		c.Slow += sign
	}
}

// countWindow is a ring of the last len(ring) call classes with running
// counts.
type countWindow struct {
	ring   []class
	next   int // ring index the next call overwrites
	counts Counts
}

func (w *countWindow) add(k class) {
	if w.counts.Calls == len(w.ring) {
		w.counts.add(w.ring[w.next], -1)
	}
	w.ring[w.next] = k
	w.counts.add(k, +1)
	w.next++
	if w.next == len(w.ring) {
		w.next = 0
	}
}

func (w *countWindow) reset() {
	w.next = 0
	w.counts = Counts{}
}

// bucket aggregates the calls of one bucket width.
type bucket struct {
	calls, failures, slow int
}

// timeWindow aggregates the calls of the last len(buckets) buckets of
// width.
type timeWindow struct {
	buckets []bucket
	width   time.Duration // of one bucket, > 0
	head    int64         // epoch (instant / width) of the newest bucket
	started bool
	counts  Counts
}

// epochOf returns floor(now / width).
func epochOf(now, width time.Duration) int64 {
	e := int64(now / width)
	if now%width < 0 {
		e--
	}
	return e
}

func (w *timeWindow) slot(epoch int64) *bucket {
	n := int64(len(w.buckets))
	return &w.buckets[((epoch%n)+n)%n]
}

// advance makes the window end at the bucket of now, dropping older buckets.
// An instant before the newest bucket is clamped to it.
func (w *timeWindow) advance(now time.Duration) {
	e := epochOf(now, w.width)
	if !w.started {
		w.head, w.started = e, true
		return
	}
	if e <= w.head {
		return
	}
	stop := min(e, w.head+int64(len(w.buckets)))
	for k := w.head + 1; k <= stop; k++ {
		b := w.slot(k)
		w.counts.Calls -= b.calls
		w.counts.Failures -= b.failures
		w.counts.Slow -= b.slow
		*b = bucket{}
	}
	w.head = e
}

func (w *timeWindow) add(now time.Duration, k class) {
	w.advance(now)
	b := w.slot(w.head)
	b.calls++
	switch k {
	case failure:
		b.failures++
	case slow:
		b.slow++
	}
	w.counts.add(k, +1)
}

func (w *timeWindow) reset() {
	clear(w.buckets)
	w.started = false
	w.counts = Counts{}
}

package wall

import (
	"time"

	"github.com/ressim/ressim/sim/policies/codel"
	"github.com/ressim/ressim/sim/policies/lifo"
)

// dispatch hands the free places under the cap to queued requests, in the
// order the discipline picks, and returns how many requests it dropped.
// Called with s.mu held.
func (s *Server) dispatch(now time.Duration) (drops int) {
	if s.queue.Len() == 0 {
		if s.codel != nil && s.lim.Inflight() < s.lim.Limit() {
			s.codel.Empty(now) // a dequeue that found nothing
		}
		return 0
	}
	for s.queue.Len() > 0 && s.lim.Inflight() < s.lim.Limit() {
		w := s.next(now, &drops)
		if w == nil {
			break
		}
		tok, ok := s.lim.Acquire(now)
		if !ok { // cannot happen: Inflight < Limit
			break
		}
		s.remove(w)
		w.tok = tok
		close(w.ready)
	}
	if s.lifo != nil {
		s.lifo.Observe(now, s.queue.Len())
	}
	return drops
}

// next returns the queued request to serve at now, after dropping those the
// discipline drops: under LIFO, expired requests at the old end and then the
// oldest or newest as the mode says; otherwise the oldest. A picked request
// whose deadline has passed is dropped, and under CoDel the head is
// delivered or dropped by CoDel's verdict (RFC 8289's dequeue, with its
// drop loop). It returns nil when the queue runs out. Called with s.mu held.
func (s *Server) next(now time.Duration, drops *int) *waiter {
	for s.queue.Len() > 0 {
		w := s.queue.Front().Value.(*waiter)
		if s.lifo != nil {
			if w.deadline <= now {
				s.drop(w)
				*drops++
				continue
			}
			if s.lifo.Mode(now, s.queue.Len()) == lifo.LIFO {
				w = s.queue.Back().Value.(*waiter)
			}
		}
		if w.deadline <= now {
			s.drop(w)
			*drops++
			continue
		}
		if s.codel != nil && s.codel.Dequeue(now, w.enq, s.queue.Len()-1) == codel.Drop {
			s.drop(w)
			*drops++
			continue
		}
		return w
	}
	if s.codel != nil {
		s.codel.Empty(now) // the requests after a drop ran out
	}
	return nil
}

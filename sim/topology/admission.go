package topology

import (
	"time"

	"github.com/ressim/ressim/sim/engine"
	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/codel"
	"github.com/ressim/ressim/sim/policies/lifo"
	"github.com/ressim/ressim/sim/policies/limit"
	"github.com/ressim/ressim/sim/policies/shed"
)

// admission is one instance's door and queue policies, as running state.
type admission struct {
	shed  *shed.Shedder
	codel *codel.CoDel
	lifo  *lifo.AdaptiveQueue[*attempt]
	limit *limit.Limiter
	// policed is lifo != nil || codel != nil, kept: dequeue's one test
	// for the queue policies, where it made two (-1.7 M instructions in
	// the retry storm, -2.7 M in mm10). door is shed != nil || limit !=
	// nil, arrive's one test for the door policies (-2.2 M in the retry
	// storm, -1.6 M in mm10).
	policed, door bool
}

func (in *instance) buildAdmission(cfg *Admission, queueCap int) error {
	var err error
	if cfg.Shed != nil {
		if in.adm.shed, err = shed.New(*cfg.Shed); err != nil {
			return err
		}
	}
	if cfg.CoDel != nil {
		if in.adm.codel, err = codel.New(*cfg.CoDel); err != nil {
			return err
		}
	}
	if cfg.LIFO != nil {
		if in.adm.lifo, err = lifo.NewAdaptiveQueue[*attempt](queueCap, *cfg.LIFO); err != nil {
			return err
		}
	}
	if cfg.Limit != nil {
		alg, err := cfg.Limit.build()
		if err != nil {
			return err
		}
		if in.adm.limit, err = limit.NewLimiter(alg); err != nil {
			return err
		}
	}
	in.adm.policed = in.adm.lifo != nil || in.adm.codel != nil
	in.adm.door = in.adm.shed != nil || in.adm.limit != nil
	return nil
}

// admit applies the door policies to an arriving attempt; it reports
// false, having answered the attempt, if one refused it. arrive calls it
// only when the instance has one (it does not inline).
func (in *instance) admit(now engine.Time, a *attempt) bool {
	s := in.svc
	m := s.m
	adm := &in.adm
	if adm.shed != nil {
		capacity := in.capacity + max(s.queueCap, 0)
		d := adm.shed.Admit(now.Duration(), a.prio, in.busy+in.queueLen(), capacity)
		if !d.Admitted {
			s.st.inc(m, now, cShed)
			a.retryAfter = d.RetryAfter
			in.leave(now, a, stRejected, policies.Rejected, "shed at the door")
			return false
		}
	}
	if adm.limit != nil {
		tok, ok := adm.limit.Acquire(now.Duration())
		if !ok {
			s.st.inc(m, now, cLimited)
			in.leave(now, a, stRejected, policies.Rejected, "refused by the concurrency limit")
			return false
		}
		a.limTok, a.holdsLim = tok, true
	}
	return true
}

// releaseLimit returns a's concurrency-limit token with the outcome the
// limit algorithm learns from.
func (in *instance) releaseLimit(now engine.Time, a *attempt, o policies.Outcome) {
	if !a.holdsLim {
		return
	}
	a.holdsLim = false
	in.logLimit(now, in.adm.limit.Release(now.Duration(), a.limTok, o))
}

// queueLen is the number of requests waiting at the instance.
func (in *instance) queueLen() int {
	if in.adm.lifo != nil {
		return in.adm.lifo.Len()
	}
	return in.queue.len()
}

// queueFull reports that a FIFO queue has no room, so that arrive refuses
// without calling enqueue, which does not inline (in the retry storm, more
// than half of the attempts find the queue full). An adaptive LIFO queue
// decides in enqueue.
func (in *instance) queueFull() bool { return in.queue.len() >= in.svc.fifoCap }

// enqueue puts a in the queue if it has room; an adaptive LIFO queue's
// is enqueueLIFO, out of line. A FIFO queue's room is arrive's test
// (queueFull), made before the call and not again here (-4 M
// instructions in the retry storm, -3 M in mm10).
func (in *instance) enqueue(now engine.Time, a *attempt) bool {
	if in.adm.lifo != nil {
		return in.enqueueLIFO(now, a)
	}
	in.queue.push(a)
	in.svc.m.attemptTo(now, a, apQueued, "")
	in.watchExpiry(now, a)
	return true
}

// enqueueLIFO is enqueue for an adaptive LIFO queue.
func (in *instance) enqueueLIFO(now engine.Time, a *attempt) bool {
	q := in.adm.lifo
	dl := engine.MaxTime
	if at, ok := a.dl.Expiry(); ok {
		dl = engine.Time(at)
	}
	if !q.Push(now.Duration(), a, dl.Duration()) {
		return false
	}
	in.svc.m.attemptTo(now, a, apQueued, "")
	in.watchExpiry(now, a)
	return true
}

// dequeue takes the next request to serve, dropping on the way those the
// queue policies reject (CoDel, adaptive LIFO's controlled delay). It
// returns nil when the queue is empty. A plain FIFO queue is served here,
// the policies in dequeuePolicy: a smaller frame on the common path.
func (in *instance) dequeue(now engine.Time) *attempt {
	if in.adm.policed {
		return in.dequeuePolicy(now)
	}
	if in.queue.len() == 0 {
		return nil
	}
	a := in.queue.pop()
	in.leaveQueue(now, a)
	in.svc.m.attemptTo(now, a, apAdmitted, "")
	return a
}

// dequeuePolicy is dequeue under adaptive LIFO or CoDel.
func (in *instance) dequeuePolicy(now engine.Time) *attempt {
	for {
		var a *attempt
		if q := in.adm.lifo; q != nil {
			e, r := q.Next(now.Duration())
			switch r {
			case lifo.Empty:
				return nil
			case lifo.Expired:
				in.dropQueued(now, e.Value, cQueueDropped)
				continue
			}
			a = e.Value
		} else {
			if in.queue.len() == 0 {
				if c := in.adm.codel; c != nil {
					c.Empty(now.Duration())
				}
				return nil
			}
			a = in.queue.pop()
			if c := in.adm.codel; c != nil && c.Dequeue(now.Duration(), a.arrived.Duration(), in.queue.len()) == codel.Drop {
				in.dropQueued(now, a, cQueueDropped)
				continue
			}
		}
		in.leaveQueue(now, a)
		in.svc.m.attemptTo(now, a, apAdmitted, "")
		return a
	}
}

// dropQueued answers a request a queue policy dropped with a rejection.
func (in *instance) dropQueued(now engine.Time, a *attempt, k svcCounter) {
	in.svc.st.inc(in.svc.m, now, k)
	in.leave(now, a, stRejected, policies.Rejected, "dropped by the queue policy")
}

// drainQueue empties the queue (a crash) and returns what it held.
func (in *instance) drainQueue() []*attempt {
	var out []*attempt
	if q := in.adm.lifo; q != nil {
		for {
			e, ok := q.Queue().PopFront()
			if !ok {
				return out
			}
			out = append(out, e.Value)
		}
	}
	for in.queue.len() > 0 {
		out = append(out, in.queue.pop())
	}
	return out
}

// oldestWait is how long the oldest queued request has waited (0 if none).
func (in *instance) oldestWait(now engine.Time) time.Duration {
	if q := in.adm.lifo; q != nil {
		if e, ok := q.Queue().Front(); ok {
			return now.Sub(engine.Time(e.EnqueuedAt))
		}
		return 0
	}
	if in.queue.len() == 0 {
		return 0
	}
	return now.Sub(in.queue.front().arrived)
}

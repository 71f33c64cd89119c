package wall

import (
	"container/list"
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/bulkhead"
	"github.com/ressim/ressim/sim/policies/codel"
	"github.com/ressim/ressim/sim/policies/lifo"
	"github.com/ressim/ressim/sim/policies/limit"
	"github.com/ressim/ressim/sim/policies/shed"
)

// Server is the server-side admission path: load shedding by priority, a
// concurrency cap (fixed or adaptive) and a bounded wait queue in front of
// it, served FIFO, through CoDel, or by adaptive LIFO. Acquire admits one
// unit of work (or refuses it); Handler puts the path in front of an
// http.Handler.
//
// A request that finds a free place under the cap and nobody queued starts
// at once. Otherwise it joins the queue if there is room (else it is
// refused with ErrLimited) and waits until a finishing request hands it its
// place. Every hand-over is a dequeue: the discipline picks the request
// (oldest, or newest under LIFO) and may drop requests instead (CoDel's
// verdict, an expired LIFO queue timeout, a deadline that has passed); a
// dropped request is refused with ErrQueueTimeout. A queued request whose
// context is done leaves the queue at once.
//
// A Server is safe for concurrent use: one mutex guards the policy state
// machines and the queue; it is never held while the handler or a hook runs.
type Server struct {
	clock Clock
	hooks Hooks
	cfg   ServerConfig

	mu      sync.Mutex
	lim     *limit.Limiter
	queue   list.List // of *waiter, oldest at the front
	qcap    int
	shedder *shed.Shedder
	codel   *codel.CoDel
	lifo    *lifo.Policy
	lifoTO  bool // LIFO with controlled delay: queued requests expire
}

// waiter is one queued request.
type waiter struct {
	elem     *list.Element // nil once out of the queue
	enq      time.Duration
	deadline time.Duration // bulkhead.NoDeadline: none
	ready    chan struct{} // closed when granted or dropped
	err      error         // nil: granted with tok
	tok      limit.Token
	stop     func() bool // the queue timeout's timer, or nil
}

// NewServer validates cfg and returns a Server, or an error wrapping
// ErrInvalidConfig or the failing policy's own error.
func NewServer(cfg ServerConfig) (*Server, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	s := &Server{clock: cfg.Clock, hooks: cfg.Hooks, cfg: cfg, qcap: cfg.QueueCapacity}
	if s.clock == nil {
		s.clock = NewMonotonicClock()
	}
	var alg limit.Algorithm = fixedLimit(cfg.MaxConcurrent)
	var err error
	if cfg.Limit != nil {
		if alg, err = cfg.Limit.algorithm(); err != nil {
			return nil, err
		}
	}
	if s.lim, err = limit.NewLimiter(alg); err != nil {
		return nil, fmt.Errorf("wall: %w", err)
	}
	if cfg.Shed != nil {
		if s.shedder, err = shed.New(*cfg.Shed); err != nil {
			return nil, fmt.Errorf("wall: %w", err)
		}
	}
	if cfg.CoDel != nil {
		if s.codel, err = codel.New(*cfg.CoDel); err != nil {
			return nil, fmt.Errorf("wall: %w", err)
		}
	}
	if cfg.LIFO != nil {
		if s.lifo, err = lifo.NewPolicy(*cfg.LIFO); err != nil {
			return nil, fmt.Errorf("wall: %w", err)
		}
		s.lifoTO = cfg.LIFO.ControlledDelay
		s.lifo.Observe(s.clock.Now(), 0)
	}
	return s, nil
}

// ServerStats is a snapshot of a Server.
type ServerStats struct {
	// InService is the number of requests admitted and not yet done.
	InService int
	// Queued is the number of requests waiting.
	Queued int
	// Limit is the current concurrency cap.
	Limit int
}

// Stats returns a snapshot of the Server's counters.
func (s *Server) Stats() ServerStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return ServerStats{InService: s.lim.Inflight(), Queued: s.queue.Len(), Limit: s.lim.Limit()}
}

// Acquire admits one request of class p, waiting in the queue if needed.
// On admission it returns done, which the caller must call exactly once
// when the work ends, with its outcome (Success; Timeout or Rejected for an
// overload signal, which lowers an adaptive limit; Error or Cancelled for
// neither). Otherwise it returns an *Error wrapping ErrLimited,
// ErrQueueTimeout, a *RejectedError from load shedding (ErrShed), or the
// context's error.
func (s *Server) Acquire(ctx context.Context, p policies.Priority) (done func(policies.Outcome), err error) {
	if err := ctx.Err(); err != nil {
		return nil, &Error{Outcome: ctxOutcome(ctx), Err: err}
	}
	now := s.clock.Now()
	deadline := bulkhead.NoDeadline
	if at, ok := ctxExpiry(ctx, s.clock); ok {
		if at <= now {
			return nil, &Error{Outcome: policies.DeadlineExceeded, Err: context.DeadlineExceeded}
		}
		deadline = at
	}
	s.mu.Lock()
	if s.shedder != nil {
		d := s.shedder.Admit(now, p, s.lim.Inflight()+s.queue.Len(), s.lim.Limit()+s.qcap)
		if !d.Admitted {
			s.mu.Unlock()
			s.hooks.rejected(now, ErrShed, policies.Rejected)
			return nil, &Error{Outcome: policies.Rejected, Err: &RejectedError{Local: true, StatusCode: d.Status, RetryAfter: d.RetryAfter}}
		}
	}
	if s.queue.Len() == 0 {
		if tok, ok := s.lim.Acquire(now); ok {
			s.mu.Unlock()
			return s.doneFunc(tok), nil
		}
	}
	if s.queue.Len() >= s.qcap {
		s.mu.Unlock()
		s.hooks.rejected(now, ErrLimited, policies.Rejected)
		return nil, &Error{Outcome: policies.Rejected, Err: ErrLimited}
	}
	w := s.enqueue(now, deadline)
	s.mu.Unlock()
	return s.wait(ctx, w)
}

// enqueue queues a request at now. Called with s.mu held.
func (s *Server) enqueue(now, deadline time.Duration) *waiter {
	w := &waiter{enq: now, deadline: deadline, ready: make(chan struct{})}
	if s.lifo != nil {
		to := s.lifo.Timeout(now, s.queue.Len())
		if s.lifoTO && now+to < w.deadline {
			w.deadline = now + to
			// The timer's function takes s.mu in another goroutine (or
			// in the one advancing a ManualClock): never here, as to > 0.
			w.stop = s.clock.AfterFunc(to, func() { s.expire(w) })
		}
	}
	w.elem = s.queue.PushBack(w)
	return w
}

// wait blocks until w is granted or dropped, or ctx is done.
func (s *Server) wait(ctx context.Context, w *waiter) (func(policies.Outcome), error) {
	select {
	case <-w.ready:
	case <-ctx.Done():
		s.mu.Lock()
		if w.elem != nil { // still queued: leave
			s.remove(w)
			if s.lifo != nil {
				s.lifo.Observe(s.clock.Now(), s.queue.Len())
			}
			s.mu.Unlock()
			return nil, &Error{Outcome: ctxOutcome(ctx), Err: ctx.Err()}
		}
		s.mu.Unlock()
		if w.err == nil { // granted just as the caller gave up: give it back
			s.doneFunc(w.tok)(policies.Cancelled)
			return nil, &Error{Outcome: ctxOutcome(ctx), Err: ctx.Err()}
		}
	}
	if w.err != nil {
		return nil, &Error{Outcome: policies.Rejected, Err: w.err}
	}
	return s.doneFunc(w.tok), nil
}

// expire drops w when its LIFO queue timeout passes.
func (s *Server) expire(w *waiter) {
	s.mu.Lock()
	if w.elem == nil {
		s.mu.Unlock()
		return
	}
	s.drop(w)
	now := s.clock.Now()
	if s.queue.Len() == 0 {
		s.lifo.Observe(now, 0)
	}
	s.mu.Unlock()
	s.hooks.rejected(now, ErrQueueTimeout, policies.Rejected)
}

// remove takes w out of the queue. Called with s.mu held.
func (s *Server) remove(w *waiter) {
	s.queue.Remove(w.elem)
	w.elem = nil
	if w.stop != nil {
		w.stop()
	}
}

// drop refuses queued request w with ErrQueueTimeout. Called with s.mu held.
func (s *Server) drop(w *waiter) {
	s.remove(w)
	w.err = ErrQueueTimeout
	close(w.ready)
}

// doneFunc returns the function that ends the request admitted with tok.
func (s *Server) doneFunc(tok limit.Token) func(policies.Outcome) {
	var once sync.Once
	return func(o policies.Outcome) {
		once.Do(func() { s.release(tok, o) })
	}
}

// release ends an admitted request and hands its place on.
func (s *Server) release(tok limit.Token, o policies.Outcome) {
	now := s.clock.Now()
	s.mu.Lock()
	tr := s.lim.Release(now, tok, o)
	drops := s.dispatch(now)
	s.mu.Unlock()
	if tr.Changed() && s.hooks.LimitChange != nil {
		s.hooks.LimitChange(tr)
	}
	for range drops {
		s.hooks.rejected(now, ErrQueueTimeout, policies.Rejected)
	}
}

package wall

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

// Handler returns an http.Handler that admits each request through the
// Server (see Acquire) and then calls next. A refused request is answered
// without calling next:
//
//	shed by priority           the shed policy's status (503 or 429) and its
//	                           Retry-After hint
//	cap reached, queue full    RejectStatus (503 by default), Retry-After if
//	dropped from the queue     RetryAfter is set
//	context done while queued  503 (the client has gone; nobody reads it)
//
// The request's outcome, for an adaptive limit, is read from the answer:
// Timeout if the request's context ran out, Rejected for a 429 or 503
// answer, Error for another 5xx, Cancelled if the client went away or next
// panicked, Success otherwise.
func (s *Server) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := PriorityFrom(r.Context())
		if s.cfg.Priority != nil {
			p = s.cfg.Priority(r)
		}
		done, err := s.Acquire(r.Context(), p)
		if err != nil {
			s.refuse(w, err)
			return
		}
		rec := &statusRecorder{ResponseWriter: w}
		o := policies.Cancelled // if next panics
		defer func() { done(o) }()
		next.ServeHTTP(rec, r)
		o = handlerOutcome(r.Context(), rec.status)
	})
}

// refuse answers a request the Server refused.
func (s *Server) refuse(w http.ResponseWriter, err error) {
	status, hint := s.cfg.RejectStatus, s.cfg.RetryAfter
	if status == 0 {
		status = http.StatusServiceUnavailable
	}
	if rej, ok := errors.AsType[*RejectedError](err); ok {
		status, hint = rej.StatusCode, rej.RetryAfter
	}
	if hint > 0 {
		w.Header().Set("Retry-After", strconv.FormatInt(int64((hint+time.Second-1)/time.Second), 10))
	}
	http.Error(w, err.Error(), status)
}

// handlerOutcome classifies a served request for the limit.
func handlerOutcome(ctx context.Context, status int) policies.Outcome {
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return policies.Timeout
	case ctx.Err() != nil:
		return policies.Cancelled
	case status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable:
		return policies.Rejected
	case status >= 500:
		return policies.Error
	}
	return policies.Success
}

// statusRecorder remembers the status a handler answered with.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer (Flush,
// deadlines).
func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// Flush forwards to the underlying writer, for handlers that assert
// http.Flusher (streaming answers).
func (r *statusRecorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		if r.status == 0 {
			r.status = http.StatusOK
		}
		f.Flush()
	}
}

package wall

import (
	"fmt"
	"net/http"
	"time"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/codel"
	"github.com/ressim/ressim/sim/policies/lifo"
	"github.com/ressim/ressim/sim/policies/limit"
	"github.com/ressim/ressim/sim/policies/shed"
)

// ServerConfig configures a Server: the server-side admission path in front
// of a handler, outside in:
//
//	load shedding by priority   (package shed)
//	  concurrency cap           fixed (MaxConcurrent) or adaptive (Limit, package limit)
//	    bounded wait queue      FIFO, CoDel (package codel) or adaptive LIFO (package lifo)
//	      the handler
type ServerConfig struct {
	// Clock is the source of time. Nil means NewMonotonicClock().
	Clock Clock

	// MaxConcurrent is a fixed cap on the requests in service at once.
	// Exactly one of MaxConcurrent (>= 1) and Limit must be set.
	MaxConcurrent int
	// Limit makes the cap adaptive: one of the package limit algorithms,
	// fed one sample per request (its service time, and whether it ended
	// in an overload signal: a timeout or a 429/503 answer).
	Limit *LimitConfig

	// QueueCapacity is the most requests that wait for a place under the
	// cap; 0 means none wait (a request that finds the cap reached is
	// refused at once). A queued request waits until it is served, its
	// context is done, or the queue discipline drops it.
	QueueCapacity int
	// CoDel, if set, runs RFC 8289's controlled delay on the queue (served
	// FIFO): each dequeue asks CoDel whether to deliver or drop the head.
	// Requires QueueCapacity >= 1. At most one of CoDel and LIFO.
	CoDel *codel.Config
	// LIFO, if set, serves the queue by Fail at Scale's adaptive LIFO:
	// FIFO normally, LIFO while the queue has not been empty for
	// Interval, and with ControlledDelay each queued request is dropped
	// when its queue timeout (Interval, or ShortTimeout under overload)
	// passes. Requires QueueCapacity >= 1.
	LIFO *lifo.Config

	// Shed turns on load shedding by priority. The utilisation is
	// (requests in service + queued) / (current cap + QueueCapacity).
	Shed *shed.Config
	// Priority returns a request's class for Shed. Nil means
	// PriorityFrom(r.Context()) (set by an outer middleware with
	// WithPriority; Normal by default).
	Priority func(r *http.Request) policies.Priority

	// RejectStatus is the HTTP status of a request refused by the cap or
	// dropped from the queue: 503 (default) or 429. A shed request gets
	// the shed policy's own status.
	RejectStatus int
	// RetryAfter, if positive, is sent as Retry-After (whole seconds,
	// rounded up) with RejectStatus. A shed request gets the shed
	// policy's own hint.
	RetryAfter time.Duration

	// Hooks are callbacks for metrics: Rejected (ErrShed, ErrLimited,
	// ErrQueueTimeout) and LimitChange. Nil hooks cost nothing.
	Hooks Hooks
}

// LimitConfig selects an adaptive concurrency limit: exactly one of AIMD,
// Vegas and Gradient2, optionally windowed.
type LimitConfig struct {
	AIMD      *limit.AIMDConfig
	Vegas     *limit.VegasConfig
	Gradient2 *limit.Gradient2Config
	// Window, if set, feeds the algorithm one aggregated sample per
	// sampling window (limit.Windowed); Vegas and Gradient2 are meant to
	// run windowed.
	Window *limit.WindowedConfig
}

// algorithm builds the limit's Algorithm.
func (c *LimitConfig) algorithm() (limit.Algorithm, error) {
	n := 0
	for _, set := range []bool{c.AIMD != nil, c.Vegas != nil, c.Gradient2 != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return nil, fmt.Errorf("%w: Limit has %d algorithms, want exactly one of AIMD, Vegas, Gradient2", ErrInvalidConfig, n)
	}
	var (
		alg limit.Algorithm
		err error
	)
	switch {
	case c.AIMD != nil:
		alg, err = limit.NewAIMD(*c.AIMD)
	case c.Vegas != nil:
		alg, err = limit.NewVegas(*c.Vegas)
	default:
		alg, err = limit.NewGradient2(*c.Gradient2)
	}
	if err != nil {
		return nil, fmt.Errorf("wall: %w", err)
	}
	if c.Window != nil {
		if alg, err = limit.NewWindowed(*c.Window, alg); err != nil {
			return nil, fmt.Errorf("wall: %w", err)
		}
	}
	return alg, nil
}

// validate reports the first problem of c that the policy constructors do
// not check themselves.
func (c *ServerConfig) validate() error {
	switch {
	case (c.MaxConcurrent > 0) == (c.Limit != nil):
		return fmt.Errorf("%w: want exactly one of MaxConcurrent (>= 1) and Limit, have MaxConcurrent %d", ErrInvalidConfig, c.MaxConcurrent)
	case c.MaxConcurrent < 0:
		return fmt.Errorf("%w: MaxConcurrent %d, want >= 0", ErrInvalidConfig, c.MaxConcurrent)
	case c.QueueCapacity < 0 || c.QueueCapacity > 1<<24:
		return fmt.Errorf("%w: QueueCapacity %d, want in [0, 1<<24]", ErrInvalidConfig, c.QueueCapacity)
	case c.CoDel != nil && c.LIFO != nil:
		return fmt.Errorf("%w: both CoDel and LIFO set, want at most one", ErrInvalidConfig)
	case (c.CoDel != nil || c.LIFO != nil) && c.QueueCapacity < 1:
		return fmt.Errorf("%w: a queue discipline (CoDel or LIFO) with QueueCapacity %d, want >= 1", ErrInvalidConfig, c.QueueCapacity)
	case c.RejectStatus != 0 && c.RejectStatus != http.StatusServiceUnavailable && c.RejectStatus != http.StatusTooManyRequests:
		return fmt.Errorf("%w: RejectStatus %d, want 503 or 429", ErrInvalidConfig, c.RejectStatus)
	case c.RetryAfter < 0:
		return fmt.Errorf("%w: RetryAfter %v, want >= 0", ErrInvalidConfig, c.RetryAfter)
	}
	return nil
}

// fixedLimit is the Algorithm of a fixed cap: it ignores samples.
type fixedLimit int

func (f fixedLimit) OnSample(time.Duration, time.Duration, int, bool) {}
func (f fixedLimit) Limit() int                                       { return int(f) }

package wall

import (
	"time"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/breaker"
	"github.com/ressim/ressim/sim/policies/limit"
	"github.com/ressim/ressim/sim/policies/outlier"
	"github.com/ressim/ressim/sim/policies/retry"
)

// Hooks are optional callbacks for metrics and logs. Every field may be nil;
// a nil hook costs one pointer comparison and nothing else. Hooks run in the
// goroutine of the call (or, for timer-driven events, of the timer) that
// caused the event, never under a lock of this package, so they may call
// back into the Caller, Server or Balancer. They must be safe for concurrent
// use and should be quick.
type Hooks struct {
	// AttemptStart is called before each attempt (call of fn, or
	// RoundTrip of the base transport); n is 1 for the first attempt.
	AttemptStart func(AttemptStart)
	// AttemptEnd is called after each attempt with its outcome and
	// latency.
	AttemptEnd func(AttemptEnd)
	// BreakerTransition is called with every circuit breaker transition
	// (in addition to Config.OnBreakerTransition).
	BreakerTransition func(breaker.Transition)
	// Rejected is called once for every call or request refused locally:
	// shed, bulkhead full, circuit open, retry budget exhausted,
	// concurrency limit reached, dropped from a queue, no host.
	Rejected func(Rejection)
	// LimitChange is called when a Server's adaptive concurrency limit
	// changes.
	LimitChange func(limit.Transition)
	// OutlierEvent is called with every ejection, un-ejection and
	// overflow of a Balancer's outlier detector; host is the host's
	// address.
	OutlierEvent func(host string, ev outlier.Event)
}

// AttemptStart describes an attempt about to start.
type AttemptStart struct {
	// At is the clock's instant.
	At time.Duration
	// N is the attempt's number, 1 for the first.
	N int
}

// AttemptEnd describes a finished attempt.
type AttemptEnd struct {
	// At is the instant the attempt ended.
	At time.Duration
	// N is the attempt's number, 1 for the first.
	N int
	// Outcome is how the attempt ended.
	Outcome policies.Outcome
	// Latency is the attempt's duration.
	Latency time.Duration
	// Err is the attempt's error (nil on success).
	Err error
}

// Rejection describes a local refusal.
type Rejection struct {
	// At is the clock's instant.
	At time.Duration
	// Reason is the sentinel: ErrShed, ErrBulkheadFull, ErrCircuitOpen,
	// ErrBudgetExhausted, ErrLimited, ErrQueueTimeout or ErrNoHost. Its
	// Error() text is a stable label for a metric.
	Reason error
	// Outcome is the refusal in the shared vocabulary of package
	// policies.
	Outcome policies.Outcome
}

func (h *Hooks) attemptStart(at time.Duration, n int) {
	if h.AttemptStart != nil {
		h.AttemptStart(AttemptStart{At: at, N: n})
	}
}

func (h *Hooks) attemptEnd(e AttemptEnd) {
	if h.AttemptEnd != nil {
		h.AttemptEnd(e)
	}
}

func (h *Hooks) rejected(at time.Duration, reason error, o policies.Outcome) {
	if h.Rejected != nil {
		h.Rejected(Rejection{At: at, Reason: reason, Outcome: o})
	}
}

// rejectionOf returns the sentinel of the local refusal that ended a call,
// or nil if the call was not refused locally.
func rejectionOf(e *Error) error {
	if rej, ok := e.Err.(*RejectedError); ok && rej.Local {
		return ErrShed
	}
	switch e.Err {
	case ErrCircuitOpen, ErrBulkheadFull, ErrNoHost:
		return e.Err
	}
	if e.Attempts > 0 && e.Reason == retry.ReasonBudget {
		return ErrBudgetExhausted
	}
	return nil
}

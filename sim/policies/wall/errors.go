package wall

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/retry"
)

// Sentinel errors of local refusals, wrapped by the *Error that Do returns.
var (
	// ErrCircuitOpen: the circuit breaker refused the call.
	ErrCircuitOpen = errors.New("wall: circuit open")
	// ErrBulkheadFull: no bulkhead slot was free within the bounded wait.
	ErrBulkheadFull = errors.New("wall: bulkhead full")
	// ErrKilled: the feature's kill switch is on, so the call was not made.
	ErrKilled = errors.New("wall: feature killed")
	// ErrNotReplayable: an HTTP request body cannot be sent again (no
	// GetBody), so the request was not retried.
	ErrNotReplayable = errors.New("wall: request body not replayable")
)

// Error is the error Do returns when the call path did not end in success.
// It says how the call ended, after how many attempts, and why no further
// attempt was made.
type Error struct {
	// Outcome is how the call ended: the outcome of the last attempt
	// (Error, Timeout, Rejected), or the local refusal that ended it
	// (Rejected by load shedding, BulkheadFull, CircuitOpen,
	// DeadlineExceeded, Cancelled; Cancelled with ErrKilled when the
	// fallback's kill switch is on and no fallback level answered).
	Outcome policies.Outcome
	// Attempts is the number of attempts made (calls of fn); 0 when the
	// call was refused before the first one.
	Attempts int
	// Reason says why no further attempt was made, when Attempts > 0 and
	// the Caller has a retry policy: retry.ReasonExhausted,
	// ReasonNotRetryable, ReasonDeadline, ReasonBudget, ... It is
	// meaningless otherwise.
	Reason retry.Reason
	// Err is the cause: the last attempt's error, or the sentinel of the
	// local refusal (ErrCircuitOpen, ErrBulkheadFull, ErrKilled, a
	// *RejectedError from load shedding, context.DeadlineExceeded,
	// context.Canceled).
	Err error
	// Last is the last attempt's error when the call was ended by a local
	// refusal after at least one attempt (a breaker that opened between
	// retries, say); nil otherwise.
	Last error
}

// Error describes the failure in one line.
func (e *Error) Error() string {
	s := "wall: " + e.Outcome.String()
	if e.Attempts > 0 {
		s += " after " + strconv.Itoa(e.Attempts) + " attempt"
		if e.Attempts > 1 {
			s += "s"
		}
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	if e.Last != nil {
		s += " (last attempt: " + e.Last.Error() + ")"
	}
	return s
}

// Unwrap returns Err and Last, so that errors.Is and errors.As see both.
func (e *Error) Unwrap() []error {
	switch {
	case e.Err == nil && e.Last == nil:
		return nil
	case e.Last == nil:
		return []error{e.Err}
	case e.Err == nil:
		return []error{e.Last}
	}
	return []error{e.Err, e.Last}
}

// RejectedError is an explicit refusal by an overloaded callee (HTTP 429 or
// 503, a shed request): outcome policies.Rejected. A fn passed to Do returns
// one to have its Retry-After hint honoured by the retry (retry.DecideAfter);
// Do returns one, inside an *Error, when its own load shedding refuses a
// call.
type RejectedError struct {
	// StatusCode is the HTTP status of the refusal (429 or 503), or 0.
	StatusCode int
	// RetryAfter is the callee's Retry-After hint; 0 means none.
	RetryAfter time.Duration
}

// Error describes the refusal.
func (e *RejectedError) Error() string {
	s := "rejected"
	if e.StatusCode != 0 {
		s += " with status " + strconv.Itoa(e.StatusCode)
	}
	if e.RetryAfter > 0 {
		s += fmt.Sprintf(", retry after %v", e.RetryAfter)
	}
	return s
}

// Classify is the default classifier of the errors a fn returns:
//
//	nil                                    Success
//	a *RejectedError                       Rejected
//	context.DeadlineExceeded, or an error
//	with a Timeout() bool method that
//	reports true (net.Error)               Timeout
//	context.Canceled                       Cancelled
//	anything else                          Error
//
// Do classifies an attempt by its context first: an attempt whose context was
// done when fn returned an error is a Timeout (its timeout or the request's
// deadline ran out) or Cancelled (the caller gave up); the classifier sees
// only the errors of attempts whose context was still live.
func Classify(err error) policies.Outcome {
	if err == nil {
		return policies.Success
	}
	if _, ok := errors.AsType[*RejectedError](err); ok {
		return policies.Rejected
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return policies.Timeout
	}
	if te, ok := errors.AsType[timeouter](err); ok && te.Timeout() {
		return policies.Timeout
	}
	if errors.Is(err, context.Canceled) {
		return policies.Cancelled
	}
	return policies.Error
}

// OutcomeOf returns the outcome of a call from the error Do returned:
// Success for nil, the Outcome of an *Error, and Classify(err) otherwise.
func OutcomeOf(err error) policies.Outcome {
	if err == nil {
		return policies.Success
	}
	if e, ok := errors.AsType[*Error](err); ok {
		return e.Outcome
	}
	return Classify(err)
}

// timeouter is an error that knows whether it is a timeout, like net.Error.
type timeouter interface {
	error
	Timeout() bool
}

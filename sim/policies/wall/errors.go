package wall

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/retry"
)

// Sentinel errors, one per reason a call can be refused or ended without a
// callee's answer. Every error of this package wraps at most one of them, at
// one level (an *Error's Err, or the cause a *RejectedError unwraps to), so
// that errors.Is(err, ErrCircuitOpen) and friends work on what Do, the
// Transport and the Server return. Their messages carry no package prefix:
// *Error adds "wall: " once.
var (
	// ErrCircuitOpen: the circuit breaker refused the call.
	ErrCircuitOpen = errors.New("circuit open")
	// ErrBulkheadFull: no bulkhead slot (semaphore or pool) was free within
	// the bounded wait.
	ErrBulkheadFull = errors.New("bulkhead full")
	// ErrShed: this process's load shedding refused the call (a
	// *RejectedError with Local set unwraps to it).
	ErrShed = errors.New("shed")
	// ErrRejected: the callee refused the call explicitly (HTTP 429 or 503;
	// a *RejectedError with Local unset unwraps to it).
	ErrRejected = errors.New("rejected by callee")
	// ErrBudgetExhausted: a retry was denied by the retry budget (token
	// bucket or Envoy-style concurrency budget); the *Error's Err is the
	// last attempt's error and errors.Is sees both.
	ErrBudgetExhausted = errors.New("retry budget exhausted")
	// ErrLimited: a server's concurrency limit (fixed or adaptive) was
	// reached and its queue was full or absent.
	ErrLimited = errors.New("concurrency limit reached")
	// ErrQueueTimeout: a server dropped a queued request (CoDel, the
	// adaptive LIFO's queue timeout, or its deadline passed in the queue).
	ErrQueueTimeout = errors.New("dropped from queue")
	// ErrNoHost: every host of a Balancer is ejected.
	ErrNoHost = errors.New("no host available")
	// ErrKilled: the feature's kill switch is on, so the call was not made.
	ErrKilled = errors.New("feature killed")
	// ErrNotReplayable: an HTTP request body cannot be sent again (no
	// GetBody), so the request was not retried.
	ErrNotReplayable = errors.New("request body not replayable")
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

// Error describes the failure in one line, with the package prefix once:
// "wall: circuit open", "wall: error after 3 attempts: boom",
// "wall: circuit open after 2 attempts (last attempt: boom)",
// "wall: timeout after 2 attempts, retry budget exhausted: ...".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("wall: ")
	local := e.Err != nil && isLocal(e.Err)
	if local || e.Attempts == 0 && e.Err != nil {
		b.WriteString(e.Err.Error())
	} else {
		b.WriteString(e.Outcome.String())
	}
	if e.Attempts > 0 {
		b.WriteString(" after " + strconv.Itoa(e.Attempts) + " attempt")
		if e.Attempts > 1 {
			b.WriteString("s")
		}
		if e.Reason == retry.ReasonBudget {
			b.WriteString(", " + ErrBudgetExhausted.Error())
		}
		if !local && e.Err != nil {
			b.WriteString(": " + e.Err.Error())
		}
	}
	if e.Last != nil {
		b.WriteString(" (last attempt: " + e.Last.Error() + ")")
	}
	return b.String()
}

// isLocal reports whether err is one of this package's sentinels, whose
// text already names the refusal.
func isLocal(err error) bool {
	switch err {
	case ErrCircuitOpen, ErrBulkheadFull, ErrKilled, ErrNoHost, ErrLimited, ErrQueueTimeout:
		return true
	}
	return false
}

// Unwrap returns Err and Last, and ErrBudgetExhausted when the retry budget
// ended the call, so that errors.Is and errors.As see them.
func (e *Error) Unwrap() []error {
	var errs []error
	if e.Err != nil {
		errs = append(errs, e.Err)
	}
	if e.Last != nil {
		errs = append(errs, e.Last)
	}
	if e.Attempts > 0 && e.Reason == retry.ReasonBudget {
		errs = append(errs, ErrBudgetExhausted)
	}
	return errs
}

// RejectedError is an explicit refusal by an overloaded callee (HTTP 429 or
// 503, a shed request): outcome policies.Rejected. A fn passed to Do returns
// one to have its Retry-After hint honoured by the retry (retry.DecideAfter);
// Do returns one, inside an *Error, when its own load shedding refuses a
// call.
type RejectedError struct {
	// Local is true when this process's own load shedding refused the
	// call: the error then unwraps to ErrShed, otherwise to ErrRejected.
	Local bool
	// StatusCode is the HTTP status of the refusal (429 or 503), or 0.
	StatusCode int
	// RetryAfter is the callee's Retry-After hint; 0 means none.
	RetryAfter time.Duration
}

// Error describes the refusal.
func (e *RejectedError) Error() string {
	s := "rejected"
	if e.Local {
		s = "shed"
	}
	if e.StatusCode != 0 {
		s += " with status " + strconv.Itoa(e.StatusCode)
	}
	if e.RetryAfter > 0 {
		s += fmt.Sprintf(", retry after %v", e.RetryAfter)
	}
	return s
}

// Unwrap returns ErrShed for a local refusal, ErrRejected otherwise.
func (e *RejectedError) Unwrap() error {
	if e.Local {
		return ErrShed
	}
	return ErrRejected
}

// Classify is the default classifier of the errors a fn returns:
//
//	nil                                    Success
//	a *RejectedError, ErrNoHost            Rejected
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
	// The errors a call usually ends with, unwrapped, are told apart
	// without walking their chains.
	switch err {
	case nil:
		return policies.Success
	case context.DeadlineExceeded:
		return policies.Timeout
	case context.Canceled:
		return policies.Cancelled
	case ErrNoHost:
		return policies.Rejected
	}
	if _, ok := err.(*RejectedError); ok {
		return policies.Rejected
	}
	if _, ok := errors.AsType[*RejectedError](err); ok || errors.Is(err, ErrNoHost) {
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

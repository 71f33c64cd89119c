package retry

import "fmt"

// Reason says why a Decision allows or refuses a retry.
type Reason uint8

const (
	// ReasonRetry: the retry is allowed.
	ReasonRetry Reason = iota
	// ReasonSuccess: the attempt succeeded; there is nothing to retry.
	ReasonSuccess
	// ReasonNotRetryable: the outcome is not in RetryOn, or is never
	// retried (CircuitOpen, DeadlineExceeded, Cancelled).
	ReasonNotRetryable
	// ReasonNotIdempotent: the operation is not idempotent.
	ReasonNotIdempotent
	// ReasonExhausted: MaxAttempts attempts have been made.
	ReasonExhausted
	// ReasonDeadline: the retry could not finish before the deadline.
	ReasonDeadline
	// ReasonBudget: a retry budget refused the retry. Decide never returns
	// it; the caller sets it with Decision.Deny after consulting a budget.
	ReasonBudget
	// ReasonBreaker: a breaker that gates retries only (breaker.RetryGate)
	// refused the retry. Decide never returns it either.
	ReasonBreaker

	numReasons
)

var reasonNames = [numReasons]string{
	"retry", "success", "not_retryable", "not_idempotent", "exhausted", "deadline", "budget", "breaker",
}

// String returns the reason's snake_case name, as used in metric labels.
func (r Reason) String() string {
	if r < numReasons {
		return reasonNames[r]
	}
	return fmt.Sprintf("Reason(%d)", uint8(r))
}

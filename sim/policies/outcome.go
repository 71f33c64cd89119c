package policies

// Outcome classifies how one call attempt ended, from the caller's side.
// Policies that learn from results (breaker, budget, limit, outlier) take an
// Outcome; the retry policy decides from it whether another attempt may be
// made.
type Outcome uint8

const (
	// Success: the callee answered in time with a correct response.
	Success Outcome = iota
	// Error: the callee answered with an error (an HTTP 5xx, say).
	Error
	// Timeout: the caller stopped waiting before the callee answered.
	Timeout
	// Rejected: the callee refused the call because it is overloaded
	// (HTTP 429 or 503 with Retry-After, a full queue, load shedding).
	Rejected
	// CircuitOpen: a local circuit breaker refused the call without
	// sending it. Never retried.
	CircuitOpen
	// BulkheadFull: a local bulkhead had no slot within its bounded wait.
	BulkheadFull
	// DeadlineExceeded: the propagated deadline of the whole request left
	// no time for this call. Never retried.
	DeadlineExceeded
	// Cancelled: the caller abandoned the call for another reason (its own
	// caller gave up, a parallel branch failed).
	Cancelled

	numOutcomes
)

var outcomeNames = [numOutcomes]string{
	"success", "error", "timeout", "rejected", "circuit_open",
	"bulkhead_full", "deadline_exceeded", "cancelled",
}

// String returns the outcome's snake_case name, as used in experiment files
// and metric names.
func (o Outcome) String() string {
	if o < numOutcomes {
		return outcomeNames[o]
	}
	return "unknown"
}

// ParseOutcome is the inverse of String. It reports false for an unknown name.
func ParseOutcome(s string) (Outcome, bool) {
	for i, n := range outcomeNames {
		if n == s {
			return Outcome(i), true
		}
	}
	return 0, false
}

// IsFailure reports whether the outcome counts as a failure of the callee:
// Error, Timeout and Rejected. Local refusals (CircuitOpen, BulkheadFull,
// DeadlineExceeded, Cancelled) say nothing about the callee's health and are
// not fed to breakers or outlier detectors.
func (o Outcome) IsFailure() bool {
	return o == Error || o == Timeout || o == Rejected
}

// IsLocal reports whether the call was refused locally, without reaching the
// callee.
func (o Outcome) IsLocal() bool {
	return o == CircuitOpen || o == BulkheadFull || o == DeadlineExceeded || o == Cancelled
}

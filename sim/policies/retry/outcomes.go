package retry

import "github.com/ressim/ressim/sim/policies"

// OutcomeSet is policies.OutcomeSet, a set of outcomes.
type OutcomeSet = policies.OutcomeSet

// DefaultRetryOn is the default set of retryable outcomes: Error, Timeout and
// Rejected, the failures that may succeed on a second try.
const DefaultRetryOn = OutcomeSet(1<<policies.Error | 1<<policies.Timeout | 1<<policies.Rejected)

// neverRetried holds the outcomes that are never retried, whatever the
// Config says: there is nothing to retry after a success, a breaker-open
// rejection must not spin on the open circuit, and an exceeded deadline or a
// cancelled call has nobody waiting for the answer.
const neverRetried = OutcomeSet(1<<policies.Success | 1<<policies.CircuitOpen |
	1<<policies.DeadlineExceeded | 1<<policies.Cancelled)

// NewOutcomeSet returns the set holding the given outcomes
// (policies.NewOutcomeSet).
func NewOutcomeSet(outcomes ...policies.Outcome) OutcomeSet {
	return policies.NewOutcomeSet(outcomes...)
}

package retry

import "github.com/ressim/ressim/sim/policies"

// OutcomeSet is a set of policies.Outcome values, one bit per outcome. The
// zero value is the empty set.
type OutcomeSet uint16

// DefaultRetryOn is the default set of retryable outcomes: Error, Timeout and
// Rejected, the failures that may succeed on a second try.
const DefaultRetryOn = OutcomeSet(1<<policies.Error | 1<<policies.Timeout | 1<<policies.Rejected)

// neverRetried holds the outcomes that are never retried, whatever the
// Config says: there is nothing to retry after a success, a breaker-open
// rejection must not spin on the open circuit, and an exceeded deadline or a
// cancelled call has nobody waiting for the answer.
const neverRetried = OutcomeSet(1<<policies.Success | 1<<policies.CircuitOpen |
	1<<policies.DeadlineExceeded | 1<<policies.Cancelled)

// NewOutcomeSet returns the set holding the given outcomes.
func NewOutcomeSet(outcomes ...policies.Outcome) OutcomeSet {
	var s OutcomeSet
	for _, o := range outcomes {
		s = s.With(o)
	}
	return s
}

// With returns s with o added. Outcomes beyond the 16 a set can hold are
// ignored.
func (s OutcomeSet) With(o policies.Outcome) OutcomeSet {
	if o >= 16 {
		return s
	}
	return s | 1<<o
}

// Has reports whether o is in s.
func (s OutcomeSet) Has(o policies.Outcome) bool {
	return o < 16 && s&(1<<o) != 0
}

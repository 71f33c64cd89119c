package policies

// OutcomeSet is a set of Outcome values, one bit per outcome: the
// outcomes a retry policy retries (retry.Config.RetryOn), the failures
// after which a hedged call goes on (hedge.Config.NonFatal). The zero
// value is the empty set. It is a plain value, safe to copy and to share.
type OutcomeSet uint16

// NewOutcomeSet returns the set holding the given outcomes.
func NewOutcomeSet(outcomes ...Outcome) OutcomeSet {
	var s OutcomeSet
	for _, o := range outcomes {
		s = s.With(o)
	}
	return s
}

// With returns s with o added. Outcomes beyond the 16 a set can hold are
// ignored.
func (s OutcomeSet) With(o Outcome) OutcomeSet {
	if o >= 16 {
		return s
	}
	return s | 1<<o
}

// Has reports whether o is in s.
func (s OutcomeSet) Has(o Outcome) bool {
	return o < 16 && s&(1<<o) != 0
}

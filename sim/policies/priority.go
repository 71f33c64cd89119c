package policies

// Priority is a request's criticality class. It travels with the request
// (together with its deadline) through every hop, and load shedding drops the
// lowest class first.
type Priority uint8

const (
	// Critical requests are shed last (checkout, payment).
	Critical Priority = iota
	// Normal is the default class.
	Normal
	// Background requests are shed first (prefetch, analytics, batch).
	Background

	// NumPriorities is the number of classes.
	NumPriorities = 3
)

var priorityNames = [NumPriorities]string{"critical", "normal", "background"}

// String returns "critical", "normal" or "background".
func (p Priority) String() string {
	if p < NumPriorities {
		return priorityNames[p]
	}
	return "unknown"
}

// ParsePriority is the inverse of String. It reports false for an unknown name.
func ParsePriority(s string) (Priority, bool) {
	for i, n := range priorityNames {
		if n == s {
			return Priority(i), true
		}
	}
	return 0, false
}

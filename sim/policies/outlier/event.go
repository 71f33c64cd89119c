package outlier

import "time"

// Kind says what happened to a host.
type Kind uint8

const (
	// Ejected: the host was removed from the balancing set.
	Ejected Kind = iota + 1
	// Unejected: the host was returned to the balancing set.
	Unejected
	// Overflow: the host was detected as an outlier but not ejected,
	// because MaxEjectionPercent would have been exceeded (Envoy's
	// ejections_overflow) or because enforcement drew against it.
	Overflow
)

// String returns "ejected", "unejected" or "overflow".
func (k Kind) String() string {
	switch k {
	case Ejected:
		return "ejected"
	case Unejected:
		return "unejected"
	case Overflow:
		return "overflow"
	}
	return "unknown"
}

// Reason says which detector fired, or why a host came back.
type Reason uint8

const (
	// Consecutive5xx: the consecutive-failure detector.
	Consecutive5xx Reason = iota + 1
	// SuccessRate: the success-rate detector.
	SuccessRate
	// EjectionTimeElapsed: the ejection time passed (for Unejected).
	EjectionTimeElapsed
)

// String returns the reason's snake_case name.
func (r Reason) String() string {
	switch r {
	case Consecutive5xx:
		return "consecutive_5xx"
	case SuccessRate:
		return "success_rate"
	case EjectionTimeElapsed:
		return "ejection_time_elapsed"
	}
	return "unknown"
}

// Event is one ejection, un-ejection or overflow, returned as a value.
type Event struct {
	// Host is the host's index in [0, Hosts()).
	Host int
	// Kind is what happened.
	Kind Kind
	// Reason says which detector fired, or EjectionTimeElapsed.
	Reason Reason
	// At is the instant of the event.
	At time.Duration
	// EjectedFor is the ejection time of an Ejected event:
	// min(BaseEjectionTime * Backoff, MaxEjectionTime). The host comes
	// back at the first sweep at or after At + EjectedFor.
	EjectedFor time.Duration
	// Backoff is the host's ejection backoff after the event.
	Backoff int
	// Ejections is the number of times the host has been ejected so far.
	Ejections int
}

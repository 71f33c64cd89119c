package health

import "time"

// Kind is the kind of a probe.
type Kind uint8

const (
	// Readiness decides whether the instance receives traffic.
	Readiness Kind = iota
	// Liveness decides whether the container is restarted.
	Liveness
)

// String returns "readiness" or "liveness".
func (k Kind) String() string {
	switch k {
	case Readiness:
		return "readiness"
	case Liveness:
		return "liveness"
	}
	return "unknown"
}

// State is a probe's verdict.
type State uint8

const (
	// Unready: a readiness probe's verdict that the instance must receive
	// no traffic. A readiness probe starts Unready.
	Unready State = iota
	// Ready: the instance may receive traffic.
	Ready
	// Live: a liveness probe's verdict that the container is fine. A
	// liveness probe starts Live.
	Live
	// Restarting: the liveness probe failed FailureThreshold times in a
	// row; the container must be restarted.
	Restarting
)

// String returns "unready", "ready", "live" or "restarting".
func (s State) String() string {
	switch s {
	case Unready:
		return "unready"
	case Ready:
		return "ready"
	case Live:
		return "live"
	case Restarting:
		return "restarting"
	}
	return "unknown"
}

// Transition is a change of a probe's verdict, returned as a value.
type Transition struct {
	// Kind is the probe's kind.
	Kind Kind
	// From and To are the verdicts before and after.
	From, To State
	// At is the instant the verdict changed: when the deciding probe's
	// result became known, or when Restarted was called.
	At time.Duration
}

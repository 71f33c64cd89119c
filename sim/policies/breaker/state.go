package breaker

import "time"

// State is a breaker state.
type State uint8

const (
	// Closed: calls flow and results fill the sliding window.
	Closed State = iota
	// Open: calls are refused until the open pause ends.
	Open
	// HalfOpen: a few probes are admitted to test the callee.
	HalfOpen
)

// String returns "closed", "open" or "half_open".
func (s State) String() string {
	switch s {
	case Closed:
		return "closed"
	case Open:
		return "open"
	case HalfOpen:
		return "half_open"
	}
	return "unknown"
}

// Reason says why a transition happened.
type Reason uint8

const (
	// FailureRate: the failure rate reached FailureRateThreshold (closed to open).
	FailureRate Reason = iota + 1
	// SlowCallRate: the slow-call rate reached SlowCallRateThreshold (closed to open).
	SlowCallRate
	// ProbeFailed: a half-open probe failed or was slow (half-open to open).
	ProbeFailed
	// PauseElapsed: the open pause ended (open to half-open).
	PauseElapsed
	// ProbesSucceeded: every half-open probe succeeded (half-open to closed).
	ProbesSucceeded
	// Forced: an operator forced the breaker open or closed (Force).
	Forced
	// Released: an operator handed a forced breaker back to its state
	// machine (Force with Auto), which starts closed.
	Released
)

// String returns the reason's snake_case name.
func (r Reason) String() string {
	switch r {
	case FailureRate:
		return "failure_rate"
	case SlowCallRate:
		return "slow_call_rate"
	case ProbeFailed:
		return "probe_failed"
	case PauseElapsed:
		return "pause_elapsed"
	case ProbesSucceeded:
		return "probes_succeeded"
	case Forced:
		return "forced"
	case Released:
		return "released"
	}
	return "unknown"
}

// Transition describes one change of state, returned as a value.
type Transition struct {
	// From and To are the states before and after.
	From, To State
	// At is the instant of the transition (the instant passed to the call
	// that observed it; for open to half-open, possibly later than the end
	// of the pause).
	At time.Duration
	// Trips is the number of consecutive trips after the transition: n in
	// the open pause's base*2^(n-1); 0 once the breaker has closed.
	Trips int
	// Reason says why.
	Reason Reason
}

// Permit is the ticket Allow hands out for an admitted call; pass it back to
// Record with the call's result. The zero Permit is never valid.
type Permit struct {
	gen uint64
}

// Generation returns the breaker generation the permit was issued in.
func (p Permit) Generation() uint64 { return p.gen }

// Counts is a snapshot of the sliding window (or, in half-open, of the
// probes).
type Counts struct {
	// Calls is the number of recorded calls in the window.
	Calls int
	// Failures is how many of them failed.
	Failures int
	// Slow is how many of them succeeded slowly.
	Slow int
}

package hedge

import "fmt"

// Action says what the caller must do after a decision.
type Action uint8

const (
	// Wait: send nothing now; wait for the copies in flight and, if
	// Decision.NextAt is not Never, for the next hedge's instant. Also the
	// answer to an event that does not apply (Reason says why).
	Wait Action = iota
	// Send: send Decision.Send copies now, then wait as for Wait.
	Send
	// Succeed: a copy succeeded; the call is done with its answer. Cancel
	// the other copies in flight.
	Succeed
	// Fail: the call is done with the failure Decision.Outcome. Cancel the
	// other copies in flight.
	Fail

	numActions
)

var actionNames = [numActions]string{"wait", "send", "succeed", "fail"}

// String returns the action's lower-case name.
func (a Action) String() string {
	if a < numActions {
		return actionNames[a]
	}
	return fmt.Sprintf("Action(%d)", uint8(a))
}

// Done reports whether the action ends the call (Succeed or Fail).
func (a Action) Done() bool { return a == Succeed || a == Fail }

// Reason says why a Decision was made.
type Reason uint8

const (
	// ReasonStart: the call's first copies (Start).
	ReasonStart Reason = iota
	// ReasonDelay: a hedge's delay ran out (Due).
	ReasonDelay
	// ReasonNotDue: Due was called before the next hedge's instant, or
	// when none is due (a stale timer); nothing changes.
	ReasonNotDue
	// ReasonNonFatal: a copy failed with a non-fatal outcome; the next
	// copy in line is sent at once if one is left, else the call waits for
	// the copies in flight.
	ReasonNonFatal
	// ReasonPerTryTimeout: a copy's per-try timeout fired and, with
	// OnPerTryTimeout, the next copy is sent alongside it.
	ReasonPerTryTimeout
	// ReasonSuccess: a copy succeeded; the call is done.
	ReasonSuccess
	// ReasonFatal: a copy failed with a fatal outcome; the call is done
	// with that failure.
	ReasonFatal
	// ReasonExhausted: every copy has been sent and every one has failed
	// non-fatally; the call is done with the last failure.
	ReasonExhausted
	// ReasonThrottled: the caller's budget or throttle refused the hedges
	// (Decision.Deny or Limit). The policy never returns it by itself.
	ReasonThrottled
	// ReasonIgnored: the event does not apply: the call has not started
	// (the zero Call) or is already done (a late answer of a cancelled
	// copy, say). Nothing changes.
	ReasonIgnored

	numReasons
)

var reasonNames = [numReasons]string{
	"start", "delay", "not_due", "non_fatal", "per_try_timeout",
	"success", "fatal", "exhausted", "throttled", "ignored",
}

// String returns the reason's snake_case name, as used in metric labels.
func (r Reason) String() string {
	if r < numReasons {
		return reasonNames[r]
	}
	return fmt.Sprintf("Reason(%d)", uint8(r))
}

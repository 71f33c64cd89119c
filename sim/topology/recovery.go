package topology

import (
	"time"
)

// Verdicts on a fault.
const (
	// VerdictRecovered: after the fault ended, goodput came back to the
	// threshold and the requests in flight to their pre-fault band, and
	// both stayed back to the end of the examined span.
	VerdictRecovered = "recovered"
	// VerdictLockedIn: goodput at the end of the examined span is still
	// significantly below the threshold, and it never came back after the
	// fault: the system stayed down after its trigger was gone.
	VerdictLockedIn = "locked_in"
	// VerdictRelapsed: goodput came back for a while after the fault, then
	// collapsed again and was still down at the end of the examined span.
	// It counts as locked in: the end state is the same.
	VerdictRelapsed = "relapsed"
	// VerdictUnaffected: no window from the fault's start on showed a
	// significant goodput deficit, and the requests in flight never left
	// their pre-fault band.
	VerdictUnaffected = "unaffected"
	// VerdictNoBaseline: no goodput was measured before the fault (it
	// starts during the warm-up, or nothing succeeded).
	VerdictNoBaseline = "no_baseline"
	// VerdictUndetermined: the examined span after the fault is shorter
	// than one test window, or goodput is back but the backlog of
	// requests in flight is still above its band when the span ends.
	VerdictUndetermined = "undetermined"
)

// IsLockedIn reports whether verdict v says the system ended down:
// locked in, or relapsed.
func IsLockedIn(v string) bool { return v == VerdictLockedIn || v == VerdictRelapsed }

// DefaultRecoveryAlpha is the false-alarm level of the end-state test: the
// probability that a system whose goodput is at the threshold is judged
// locked in, under Poisson counting (see docs/model.md).
const DefaultRecoveryAlpha = 1e-6

// Recovery is the verdict on one fault window, with its evidence.
type Recovery struct {
	// Verdict is one of the Verdict constants.
	Verdict string
	// Reason says in one sentence why, in words for the terminal.
	Reason string
	// Baseline is the mean goodput (full answers within the deadline, all
	// clients, requests per second) before the fault, after warm-up.
	Baseline float64
	// Threshold is the goodput that counts as back: RecoveryConfig's
	// Threshold times Baseline, requests per second.
	Threshold float64
	// Min is the lowest goodput over one second (or one interval, if
	// longer) from the fault's start on, requests per second.
	Min float64
	// Time is how long after the fault ended both goodput and the requests
	// in flight were back for good (0 if unaffected); never negative.
	// Valid for VerdictRecovered and VerdictUnaffected.
	Time time.Duration
	// Returned and Relapsed, for VerdictRelapsed: when goodput was first
	// back over a whole window after the fault, and the end of the last
	// such window before the collapse that lasted to the end; times from
	// the start of the run.
	Returned, Relapsed time.Duration
	// Evidence is what the verdict was decided from.
	Evidence Evidence
}

// Evidence is what a verdict was decided from: counts of full answers in
// windows, the one-sided test of the end window against the baseline, and
// the requests in flight. Times are from the start of the run.
type Evidence struct {
	// BaselineStart and BaselineEnd bound the baseline span (after the
	// warm-up, before the fault); BaselineGood is the full answers in it.
	BaselineStart, BaselineEnd time.Duration
	BaselineGood               uint64
	// Window is the test window: the recovery window, lengthened so that
	// the threshold expects at least MinExpected full answers in it.
	Window time.Duration
	// EndStart and EndEnd bound the end window, the last window of the
	// examined span; EndGood is the full answers in it and EndExpected
	// what the threshold rate predicts there.
	EndStart, EndEnd time.Duration
	EndGood          uint64
	EndExpected      float64
	// PValue is the one-sided p-value of EndGood under "goodput is at the
	// threshold" (the conditional binomial test of two Poisson counts);
	// the end window shows a deficit when PValue < Alpha, that is when
	// EndGood <= EndCritical (-1: no count would be a deficit).
	PValue, Alpha float64
	EndCritical   int64
	// InFlightBand is the most user requests in flight that count as back
	// to normal: twice the largest in-flight count seen at an interval
	// boundary in the baseline, plus 10. InFlightAtEnd is the count at the
	// end of the examined span, InFlightPeak the largest at an interval
	// boundary from the fault's start to there.
	InFlightBand, InFlightAtEnd, InFlightPeak int64
}

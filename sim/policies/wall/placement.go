package wall

import "fmt"

// Placement says where the circuit breaker sits relative to the retry loop.
// The values mirror the experiment file's breaker key placement
// ("outside_retry", "inside_retry", "retries_only"; see docs/experiment-format.md), so that
// a design tried in the simulator is the one deployed.
type Placement uint8

const (
	// OutsideRetry, the default, puts the breaker around the whole retry
	// loop: one Allow per logical call, before the first attempt, and one
	// Record per call, with the call's final outcome and its latency from
	// the call's start (a bulkhead wait included, as in the simulator) to
	// the end of the last attempt. Retries that
	// end in success count as one success. This is the simulator's default
	// (sim/topology: one breaker decision per call).
	OutsideRetry Placement = iota
	// InsideRetry asks the breaker before every attempt and records every
	// attempt: a breaker that opens between two attempts stops the retries,
	// and a call of three failed attempts counts three failures. The
	// simulator keeps it to show why it is the wrong order (retries
	// inflate the failure count and trip the breaker sooner).
	InsideRetry
	// RetriesOnly puts a breaker for retries only (Config.RetryBreaker,
	// breaker.RetryGate, jirfag's retry circuit breaker): every attempt is
	// recorded, a first attempt is never refused, and a retry is refused
	// (retry.ReasonBreaker) while the recent attempts' failure rate is at or
	// above its threshold.
	RetriesOnly
)

// String returns the experiment file's spelling: "outside_retry",
// "inside_retry" or "retries_only".
func (p Placement) String() string {
	switch p {
	case OutsideRetry:
		return "outside_retry"
	case InsideRetry:
		return "inside_retry"
	case RetriesOnly:
		return "retries_only"
	}
	return fmt.Sprintf("placement(%d)", uint8(p))
}

// ParsePlacement parses the experiment file's spelling of a placement.
func ParsePlacement(s string) (Placement, error) {
	switch s {
	case "outside_retry", "":
		return OutsideRetry, nil
	case "inside_retry":
		return InsideRetry, nil
	case "retries_only":
		return RetriesOnly, nil
	}
	return 0, fmt.Errorf("%w: placement %q, want outside_retry, inside_retry or retries_only", ErrInvalidConfig, s)
}

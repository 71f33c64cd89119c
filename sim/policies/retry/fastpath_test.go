package retry

import (
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

// decideRef is DecideAfter as it was before its fast path (one switch over
// the rules, in the documented order): the reference the fast path must
// match.
func decideRef(p *Policy, now time.Duration, c Call, o policies.Outcome, deadline time.Duration, u float64, retryAfter time.Duration) Decision {
	switch {
	case o == policies.Success:
		return Decision{Reason: ReasonSuccess, Next: c, from: c}
	case neverRetried.Has(o) || !p.cfg.RetryOn.Has(o):
		return Decision{Reason: ReasonNotRetryable, Next: c, from: c}
	case !p.cfg.Idempotent:
		return Decision{Reason: ReasonNotIdempotent, Next: c, from: c}
	case c.Attempts() >= p.cfg.MaxAttempts:
		return Decision{Reason: ReasonExhausted, Next: c, from: c}
	}
	delay := max(p.delay(c, u), min(retryAfter, MaxCap))
	if deadline != 0 {
		start := now + delay
		if start >= deadline || start+p.cfg.AttemptTimeout > deadline {
			return Decision{Reason: ReasonDeadline, Next: c, from: c}
		}
	}
	return Decision{
		Retry:  true,
		Delay:  delay,
		At:     now + delay,
		Reason: ReasonRetry,
		Next:   Call{retries: c.retries + 1, prev: delay},
		from:   c,
	}
}

// TestDecideAfterMatchesReference checks DecideAfter, with its precomputed
// retryable set and its early refusal, against decideRef on every backoff,
// RetryOn, idempotency, attempt count, outcome, deadline and hint of a
// grid.
func TestDecideAfterMatchesReference(t *testing.T) {
	retryOns := []OutcomeSet{DefaultRetryOn, NewOutcomeSet(policies.Timeout), NewOutcomeSet(policies.Error, policies.BulkheadFull)}
	deadlines := []time.Duration{0, 150 * ms, 1000 * ms, 1100 * ms, 5000 * ms}
	hints := []time.Duration{-ms, 0, 30 * ms, 2 * MaxCap}
	n := 0
	for b := Backoff(0); b < numBackoffs; b++ {
		for _, on := range retryOns {
			for _, idem := range []bool{true, false} {
				for _, maxA := range []int{1, 2, 3, 5, MaxMaxAttempts} {
					cfg := Config{MaxAttempts: maxA, RetryOn: on, Idempotent: idem, Backoff: b,
						Base: 10 * ms, Cap: 400 * ms, AttemptTimeout: 100 * ms}
					p := mustNew(t, cfg)
					for retries := int32(0); retries < 6; retries++ {
						c := Call{retries: retries, prev: time.Duration(retries) * 7 * ms}
						for o := policies.Outcome(0); o <= policies.Cancelled+1; o++ {
							for _, dl := range deadlines {
								for _, h := range hints {
									for _, u := range []float64{0, 0.37, 0.999, 1.5, -1} {
										now := 900 * ms
										got := p.DecideAfter(now, c, o, dl, u, h)
										want := decideRef(p, now, c, o, dl, u, h)
										if got != want {
											t.Fatalf("%+v, %+v, %v, deadline %v, u %v, hint %v: got %+v, want %+v", cfg, c, o, dl, u, h, got, want)
										}
										n++
									}
								}
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d decisions compared", n)
}

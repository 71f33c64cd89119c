package limit

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

// Token is the receipt of one admitted call. Pass it back to Release.
type Token struct {
	// Start is the instant the call was admitted.
	Start time.Duration
	// Inflight is the number of calls in flight just after admission,
	// this one included; it is the inflight passed to the Algorithm.
	Inflight int
}

// Transition records the integer limit before and after a Release, so that
// the caller can plot the limit over time. From == To when the limit did
// not change.
type Transition struct {
	// At is the instant of the Release.
	At time.Duration
	// From is the limit before the sample.
	From int
	// To is the limit after the sample.
	To int
}

// Changed reports whether the limit changed.
func (t Transition) Changed() bool { return t.From != t.To }

// Limiter enforces an Algorithm's limit on the number of calls in flight.
// The zero value is not usable; call NewLimiter.
type Limiter struct {
	alg      Algorithm
	inflight int
}

// NewLimiter returns a Limiter enforcing alg's limit, or an error if alg is
// nil.
func NewLimiter(alg Algorithm) (*Limiter, error) {
	if alg == nil {
		return nil, fmt.Errorf("limit.NewLimiter: %w: nil Algorithm", ErrInvalidConfig)
	}
	return &Limiter{alg: alg}, nil
}

// Acquire admits a call at now unless in-flight >= limit. It reports false
// (and a zero Token) when the call must be rejected.
func (l *Limiter) Acquire(now time.Duration) (Token, bool) {
	if l.inflight >= l.alg.Limit() {
		return Token{}, false
	}
	l.inflight++
	return Token{Start: now, Inflight: l.inflight}, true
}

// Release ends the call admitted with tok at now and feeds the Algorithm
// one sample with rtt = now - tok.Start: a normal sample for
// policies.Success, a dropped sample for Timeout and Rejected, and none for
// Error and the local outcomes (see the package documentation). It returns
// the limit's Transition.
func (l *Limiter) Release(now time.Duration, tok Token, o policies.Outcome) Transition {
	if l.inflight > 0 {
		l.inflight--
	}
	from := l.alg.Limit()
	switch o {
	case policies.Success:
		l.alg.OnSample(now, now-tok.Start, tok.Inflight, false)
	case policies.Timeout, policies.Rejected:
		l.alg.OnSample(now, now-tok.Start, tok.Inflight, true)
	}
	return Transition{At: now, From: from, To: l.alg.Limit()}
}

// Inflight returns the number of calls admitted and not yet released.
func (l *Limiter) Inflight() int { return l.inflight }

// Limit returns the Algorithm's current limit.
func (l *Limiter) Limit() int { return l.alg.Limit() }

package retry

import (
	"fmt"
	"math"
	"time"
)

// WorstCase returns the source's upper bound on the duration of one call
// with attempts attempts, per-attempt timeout timeout and delay cap cap:
//
//	attempts*timeout + attempts*cap
//
// ("k * timeout + k * cap"). Only attempts-1 delays occur, so the bound is
// conservative by one cap. The result saturates at math.MaxInt64 instead of
// overflowing; non-positive inputs count as 0.
func WorstCase(attempts int, timeout, cap time.Duration) time.Duration {
	k := max(int64(attempts), 0)
	return time.Duration(satAdd(satMul(k, int64(max(timeout, 0))), satMul(k, int64(max(cap, 0)))))
}

// WorstCase returns WorstCase(MaxAttempts, AttemptTimeout, c) for the
// policy, where c is Cap for the growing backoffs, Base for BackoffConstant
// and 0 for BackoffNone. With AttemptTimeout 0 the attempts are bounded
// only by the deadline and the result counts the delays alone.
func (p *Policy) WorstCase() time.Duration {
	c := p.cfg.Cap
	switch p.cfg.Backoff {
	case BackoffNone:
		c = 0
	case BackoffConstant:
		c = p.cfg.Base
	}
	return WorstCase(p.cfg.MaxAttempts, p.cfg.AttemptTimeout, c)
}

// Fits returns nil if the policy's WorstCase fits in budget, the time the
// user is willing to wait (the request's whole deadline, measured from its
// start), and otherwise an error naming both figures. A policy whose worst
// case exceeds the deadline keeps retrying for a user who has already left.
func (p *Policy) Fits(budget time.Duration) error {
	if w := p.WorstCase(); w > budget {
		return fmt.Errorf("retry: worst case %d*%v + %d*cap = %v exceeds deadline budget %v",
			p.cfg.MaxAttempts, p.cfg.AttemptTimeout, p.cfg.MaxAttempts, w, budget)
	}
	return nil
}

// Amplification returns the number of calls the bottom layer of a call
// chain receives for one user request when every layer makes at most the
// given number of attempts: the product of attemptsPerLayer (the source's
// 3 x 3 x 3 = 27). It saturates at math.MaxInt64; a layer with fewer than
// one attempt counts as one.
func Amplification(attemptsPerLayer ...int) int64 {
	a := int64(1)
	for _, k := range attemptsPerLayer {
		a = satMul(a, max(int64(k), 1))
	}
	return a
}

func satMul(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a > math.MaxInt64/b {
		return math.MaxInt64
	}
	return a * b
}

func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

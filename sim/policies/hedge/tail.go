package hedge

import (
	"math"
	"time"
)

// MaxCopies returns the most copies one call can make: MaxAttempts. It is
// the worst-case load multiplier of the policy, the bound a linter checks:
// if every copy is sent and served, the callee does MaxCopies times the work
// of an unhedged call.
func (p *Policy) MaxCopies() int { return p.cfg.MaxAttempts }

// Amplification returns the worst-case number of calls the bottom layer of
// a call chain receives for one user request when every layer makes at most
// the given number of copies: their product. It saturates at
// math.MaxInt64; a layer with fewer than one copy counts as one.
func Amplification(copiesPerLayer ...int) int64 {
	a := int64(1)
	for _, k := range copiesPerLayer {
		k := max(int64(k), 1)
		if a > math.MaxInt64/k {
			return math.MaxInt64
		}
		a *= k
	}
	return a
}

// Survival returns P(T > t), the probability that a hedged call is still
// unanswered t after it started, when every copy succeeds after an
// independent latency with survival function s (s(x) = P(X > x), s(0) = 1)
// and nothing else slows it (no queueing, no failures, no per-try
// timeouts). Copy j is sent at its scheduled instant t_j if the call is
// still unanswered then, so
//
//	P(T > t) = prod over copies with t_j <= t of s(t - t_j)
//
// and with two copies and delay d: s(t) for t < d, s(t)*s(t-d) after. With
// AdditionalChance c the result is the mixture (1-c)*P(T > t | n) +
// c*P(T > t | n+1) over the initial copies n.
func (p *Policy) Survival(s func(time.Duration) float64, t time.Duration) float64 {
	n := p.initial()
	q := p.survival(n, s, t)
	if c := p.cfg.AdditionalChance; c > 0 && n < p.cfg.MaxAttempts {
		q = (1-c)*q + c*p.survival(n+1, s, t)
	}
	return q
}

// ExpectedCopies returns the expected number of copies a call sends under
// the assumptions of Survival: copy j is sent when the call is unanswered
// at t_j, which has probability prod over the copies i sent before t_j of
// s(t_j - t_i). It is the expected load multiplier: with two copies and
// the delay at the latency's p95, 1 + s(d) = 1.05, The Tail at Scale's
// "about 5 %".
func (p *Policy) ExpectedCopies(s func(time.Duration) float64) float64 {
	n := p.initial()
	e := p.expected(n, s)
	if c := p.cfg.AdditionalChance; c > 0 && n < p.cfg.MaxAttempts {
		e = (1-c)*e + c*p.expected(n+1, s)
	}
	return e
}

// initial returns the copies sent at the start without the additional
// chance.
func (p *Policy) initial() int {
	if p.cfg.Delay == 0 {
		return p.cfg.MaxAttempts
	}
	return p.cfg.InitialRequests
}

// sendAt returns the scheduled instant of copy j (from 0) of a call that
// started n copies at instant 0, and false if copy j is never sent on a
// timer.
func (p *Policy) sendAt(n, j int) (time.Duration, bool) {
	switch {
	case j < n:
		return 0, true
	case j >= p.cfg.MaxAttempts || p.cfg.Delay == Never:
		return 0, false
	}
	k := int64(j - n + 1)
	if p.cfg.Delay > Never/time.Duration(k) {
		return 0, false
	}
	return time.Duration(k) * p.cfg.Delay, true
}

func (p *Policy) survival(n int, s func(time.Duration) float64, t time.Duration) float64 {
	q := 1.0
	for j := range p.cfg.MaxAttempts {
		tj, ok := p.sendAt(n, j)
		if !ok || tj > t {
			break
		}
		q *= s(t - tj)
	}
	return q
}

func (p *Policy) expected(n int, s func(time.Duration) float64) float64 {
	e := 0.0
	for j := range p.cfg.MaxAttempts {
		tj, ok := p.sendAt(n, j)
		if !ok {
			break
		}
		q := 1.0
		for i := range j {
			if ti, _ := p.sendAt(n, i); ti < tj {
				q *= s(tj - ti)
			}
		}
		e += q
	}
	return e
}

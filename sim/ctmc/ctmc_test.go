package ctmc

import (
	"math"
	"testing"
)

// erlang is the M/M/c/N stationary distribution (N = c + K places), by
// the closed form p_n = p_0 a^n/n! (n <= c), p_0 a^n/(c! c^(n-c)) (n > c).
func erlang(lambda, mu float64, c, N int) []float64 {
	a := lambda / mu
	p := make([]float64, N+1)
	p[0] = 1
	sum := 1.0
	for n := 1; n <= N; n++ {
		p[n] = p[n-1] * a / float64(min(n, c))
		sum += p[n]
	}
	for n := range p {
		p[n] /= sum
	}
	return p
}

// TestMMcKMatchesErlang: without retries the chain is M/M/c/K, timeouts
// or not (a timed-out request stays and is served), and its stationary
// distribution is the closed form's to 1e-9.
func TestMMcKMatchesErlang(t *testing.T) {
	for _, tc := range []struct {
		lambda, mu, theta float64
		c, N              int
	}{
		{8, 1, 0, 10, 30},
		{0.9, 1, 5, 1, 20},
		{120, 10, 2, 4, 64},
		{3, 1, 0, 3, 3},
	} {
		r, err := Analyze(Params{Lambda: tc.lambda, Mu: tc.mu, Workers: tc.c, Capacity: tc.N, Theta: tc.theta}, Options{})
		if err != nil {
			t.Fatalf("%+v: %v", tc, err)
		}
		want := erlang(tc.lambda, tc.mu, tc.c, tc.N)
		for n, w := range want {
			if d := math.Abs(r.MarginalN[n] - w); d > 1e-9 {
				t.Errorf("%+v: p(%d) = %v, closed form %v", tc, n, r.MarginalN[n], w)
			}
		}
		if r.M != 0 || r.TruncationError != 0 {
			t.Errorf("%+v: M = %d, truncation %v without retries", tc, r.M, r.TruncationError)
		}
		// Blocking probability, Erlang's loss at n = N.
		if math.Abs(r.Modes.HighMass-want[tc.N]) > 1e-9 {
			t.Errorf("%+v: high mode %v, want the blocking probability %v", tc, r.Modes.HighMass, want[tc.N])
		}
	}
}

// small is a retrying system with a low and a high mode.
var small = Params{Lambda: 7, Mu: 10, Workers: 1, Capacity: 20, Theta: 1, Nu: 2, RetryTimeout: 2.0 / 3, RetryRejected: 2.0 / 3}

func TestRetryModes(t *testing.T) {
	r, err := Analyze(small, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := math.Abs(r.Modes.LowMass + r.Modes.HighMass - 1); d > 1e-12 {
		t.Errorf("mode masses %v + %v, want 1", r.Modes.LowMass, r.Modes.HighMass)
	}
	if !(r.TruncationError < r.TruncationBound) || r.TruncationBound != DefaultTruncation {
		t.Errorf("truncation %v, bound %v", r.TruncationError, r.TruncationBound)
	}
	for _, v := range []float64{r.LowToHigh, r.HighToLow} {
		if !(v > 0) || math.IsInf(v, 0) {
			t.Errorf("first passage %v", v)
		}
	}
	if r.Residual > 1e-9 {
		t.Errorf("residual %v", r.Residual)
	}
	var sum float64
	for _, v := range r.MarginalM {
		sum += v
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Errorf("orbit marginal sums to %v", sum)
	}
	t.Logf("M=%d states=%d tail=%.3g modes=%+v low->high=%.4g s high->low=%.4g s meanN=%.3f meanM=%.3f resid=%.3g",
		r.M, r.States, r.TruncationError, r.Modes, r.LowToHigh, r.HighToLow, r.MeanN, r.MeanM, r.Residual)
}

// TestPassageBirthDeath checks the hitting-time solver on M/M/1/N, where
// the mean time from 0 to N is known: sum over k < N of
// (1/(lambda p_k)) * sum_{j<=k} p_j.
func TestPassageBirthDeath(t *testing.T) {
	lambda, mu, N := 0.5, 1.0, 12
	c := chain{p: Params{Lambda: lambda, Mu: mu, Workers: 1, Capacity: N}}
	h, err := c.hitting(func(n, m int) bool { return n == N })
	if err != nil {
		t.Fatal(err)
	}
	p := erlang(lambda, mu, 1, N)
	var want, cum float64
	for k := 0; k < N; k++ {
		cum += p[k]
		want += cum / (lambda * p[k])
	}
	if math.Abs(h[0][0]-want) > 1e-9*want {
		t.Errorf("E[T 0->%d] = %v, want %v", N, h[0][0], want)
	}
}

func TestTooLarge(t *testing.T) {
	p := small
	p.Capacity = 3000
	if _, err := Analyze(p, Options{}); err == nil {
		t.Fatal("a 3001-place queue with an orbit was accepted")
	}
}

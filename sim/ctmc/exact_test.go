package ctmc

import (
	"context"
	"math"
	"testing"
)

// TestLevelHitTwoStates checks the uniformisation and the absorption at
// observation times on the smallest chain: one place (c = 1, K = 0), no
// timeout. From empty, the chain is at 1 after a step s with probability
// q = λ/(λ+μ) (1 - e^{-(λ+μ)s}); surviving k observations means being
// empty at each, so P(hit by observation K) = 1 - (1-q)^K. The test
// allows 1e-12: round-off over a few hundred products.
func TestLevelHitTwoStates(t *testing.T) {
	lambda, mu, step := 0.3, 2.0, 0.25
	p := ExactParams{Lambda: lambda, Mu: mu, Workers: 1, Capacity: 1, Attempts: 1}
	for _, K := range []int{1, 7, 40} {
		h, err := p.LevelProbability(context.Background(), LevelOptions{Level: 1, Step: step, Within: step * float64(K)})
		if err != nil {
			t.Fatal(err)
		}
		q := lambda / (lambda + mu) * (1 - math.Exp(-(lambda+mu)*step))
		want := 1 - math.Pow(1-q, float64(K))
		if math.Abs(h.Probability-want) > 1e-12 || h.Observations != K || h.Bound > 1e-14 {
			t.Errorf("K=%d: P = %.15g (bound %.3g, %d observations), want %.15g", K, h.Probability, h.Bound, h.Observations, want)
		}
	}
}

// TestLevelHitTimeoutsWithoutRetries: without retries a timeout does not
// change how many requests are at the service (the orphan stays and is
// served), so the backlog is the M/M/c/N queue's whether or not requests
// time out, and the probability of reaching a level is the same to
// round-off (1e-13), though the chain with timeouts has 2^n states per n
// against one. A warm-up drops the observations before it, which can
// only lower the probability.
func TestLevelHitTimeoutsWithoutRetries(t *testing.T) {
	base := ExactParams{Lambda: 6, Mu: 10, Workers: 2, Capacity: 7, Attempts: 1}
	with := base
	with.Theta, with.Attempts, with.RetryTimeout = 5, 1, true
	opt := LevelOptions{Level: 6, Step: 0.1, Within: 3}
	a, err := base.LevelProbability(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	b, err := with.LevelProbability(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(a.Probability-b.Probability) > 1e-13 || !(a.Probability > 1e-4 && a.Probability < 0.5) {
		t.Errorf("P without timeouts %.15g, with %.15g", a.Probability, b.Probability)
	}
	opt.Warmup = 1
	c, err := base.LevelProbability(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if !(c.Probability < a.Probability) || c.Observations != 20 {
		t.Errorf("with a 1 s warm-up P = %v (%d observations), without %v", c.Probability, c.Observations, a.Probability)
	}
}

// TestLevelHitRetriesRaise: immediate retries after timeouts add work
// (the orphan stays and its retry joins the queue), so they can only
// raise the probability of reaching a level; more attempts raise it more.
func TestLevelHitRetriesRaise(t *testing.T) {
	opt := LevelOptions{Level: 5, Step: 0.1, Within: 10}
	prev := 0.0
	for _, A := range []int{1, 2, 3} {
		p := ExactParams{Lambda: 5, Mu: 10, Workers: 1, Capacity: 6, Theta: 4, Attempts: A, RetryTimeout: true}
		h, err := p.LevelProbability(context.Background(), opt)
		if err != nil {
			t.Fatal(err)
		}
		if !(h.Probability > prev) {
			t.Errorf("attempts %d: P = %v, not above %v", A, h.Probability, prev)
		}
		t.Logf("attempts %d: %d states, P = %.6g, bound %.3g, %d products", A, h.States, h.Probability, h.Bound, h.Products)
		prev = h.Probability
	}
}

func TestExactTooLarge(t *testing.T) {
	p := ExactParams{Lambda: 5, Mu: 10, Workers: 1, Capacity: 40, Theta: 4, Attempts: 3, RetryTimeout: true}
	if _, err := p.LevelProbability(context.Background(), LevelOptions{Level: 5, Step: 0.1, Within: 1}); err == nil {
		t.Fatal("4^40 states accepted")
	}
	q := ExactParams{Lambda: 5, Mu: 10, Workers: 1, Capacity: 4, Theta: 4, Attempts: 2, RetryTimeout: true}
	if _, err := q.LevelProbability(context.Background(), LevelOptions{Level: 5, Step: 1e-6, Within: 1e6}); err == nil {
		t.Fatal("10^12 observations accepted")
	}
	for _, o := range []LevelOptions{{Level: 0, Step: 1, Within: 1}, {Level: 5, Step: 0, Within: 1}, {Level: 5, Step: 1, Within: 0.5}, {Level: 9, Step: 1, Within: 1}, {Level: 5, Step: math.NaN(), Within: 1}, {Level: 5, Step: 1, Within: math.Inf(1)}} {
		if _, err := q.LevelProbability(context.Background(), o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}

// TestExactStationaryErlang: without retries the exact chain's backlog is
// the M/M/c/N queue's, timeouts or not, so its stationary marginal is
// Erlang's closed form; the power iteration stops at a move below 1e-13
// per step, and the test allows 1e-9.
func TestExactStationaryErlang(t *testing.T) {
	p := ExactParams{Lambda: 7, Mu: 4, Workers: 2, Capacity: 9, Theta: 3, Attempts: 1}
	got, move, err := p.Stationary(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := erlang(7, 4, 2, 9)
	for n := range want {
		if math.Abs(got[n]-want[n]) > 1e-9 {
			t.Errorf("p(%d) = %v, closed form %v (move %v)", n, got[n], want[n], move)
		}
	}
}

// TestOrbitAndExactAgreeWithoutRetries: with no retries both chains are
// the same birth-death chain in n, so their level probabilities agree to
// round-off.
func TestOrbitAndExactAgreeWithoutRetries(t *testing.T) {
	r, err := Analyze(Params{Lambda: 3, Mu: 5, Workers: 1, Capacity: 8, Theta: 2}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	opt := LevelOptions{Level: 7, Step: 0.5, Within: 30}
	a, err := r.LevelProbability(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ExactParams{Lambda: 3, Mu: 5, Workers: 1, Capacity: 8, Theta: 2, Attempts: 1}.LevelProbability(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(a.Probability-b.Probability) > 1e-13 || !(a.Probability > 0.01 && a.Probability < 0.99) {
		t.Errorf("orbit chain %.15g, exact chain %.15g", a.Probability, b.Probability)
	}
}

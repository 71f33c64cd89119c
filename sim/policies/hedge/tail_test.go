package hedge

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

// latency is a copy latency distribution: a sampler and its survival
// function S(t) = P(X > t).
type latency struct {
	name     string
	draw     func(r *rand.Rand) time.Duration
	survival func(t time.Duration) float64
}

func exponential(mean time.Duration) latency {
	m := float64(mean)
	return latency{
		name:     "exponential",
		draw:     func(r *rand.Rand) time.Duration { return time.Duration(r.ExpFloat64() * m) },
		survival: func(t time.Duration) float64 { return math.Exp(-max(float64(t), 0) / m) },
	}
}

func lognormal(median time.Duration, sigma float64) latency {
	mu := math.Log(float64(median))
	return latency{
		name: "lognormal",
		draw: func(r *rand.Rand) time.Duration { return time.Duration(math.Exp(mu + sigma*r.NormFloat64())) },
		survival: func(t time.Duration) float64 {
			if t <= 0 {
				return 1
			}
			return 0.5 * math.Erfc((math.Log(float64(t))-mu)/(sigma*math.Sqrt2))
		},
	}
}

// simulate runs one hedged call through p with a tiny event loop: no
// queueing, every copy succeeds after an independent latency drawn from
// lat. It returns the call's response time, the copies sent and the
// latencies drawn, in the order the copies were sent.
func simulate(t testing.TB, p *Policy, lat latency, r *rand.Rand, buf []time.Duration) (time.Duration, int, []time.Duration) {
	var ends [MaxMaxAttempts]time.Duration // completion instants of the copies in flight
	lats := buf[:0]
	live := 0
	send := func(now time.Duration, d Decision) {
		for range d.Send {
			x := lat.draw(r)
			lats = append(lats, x)
			ends[live] = now + x
			live++
		}
	}
	d := p.Start(0, Call{}, r.Float64())
	send(0, d)
	c := d.Next
	for {
		// The next event: the earliest completion, or the hedge's timer.
		i := 0
		for j := 1; j < live; j++ {
			if ends[j] < ends[i] {
				i = j
			}
		}
		if at := c.NextAt(); at != Never && at <= ends[i] {
			d = p.Due(at, c)
			send(at, d)
			c = d.Next
			continue
		}
		now := ends[i]
		live--
		ends[i] = ends[live]
		d = p.Outcome(now, c, policies.Success)
		if d.Action != Succeed {
			t.Fatalf("a success answered %+v", d)
		}
		return now, d.Next.Sent(), lats
	}
}

// quantile returns the t at which p.Survival(s, t) = 1-prob, by bisection
// (Survival decreases in t).
func quantile(p *Policy, s func(time.Duration) float64, prob float64) time.Duration {
	lo, hi := time.Duration(0), time.Hour
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if p.Survival(s, mid) > 1-prob {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// TestClosedForm checks the policy, driven by an event loop with
// independent copy latencies X and no queueing, against the closed form
// of the response time T = min over copies of (send instant + X): with two
// copies and delay d, P(T > t) = S(t) for t < d and S(t)*S(t-d) for t >= d
// (Survival). It compares the empirical p50 and p99 with the closed-form
// quantiles, and the mean number of copies with ExpectedCopies.
//
// Tolerances: the empirical p-quantile of n samples is asymptotically
// normal around the true quantile q with standard error
// sqrt(p(1-p)/n) / f(q), f the density of T at q (here from a central
// difference of Survival). z = 4 standard errors make a false failure a
// 1-in-15 000 event per check, and the seed is fixed, so the test is
// deterministic; a policy that sends the hedge at the wrong instant moves
// the p99 by far more (the unhedged p99 lies dozens of standard errors
// away, checked below). The mean of the copies, each 1 or 2, has standard
// error at most 0.5/sqrt(n).
func TestClosedForm(t *testing.T) {
	const (
		n = 100_000
		z = 4.0
	)
	tests := []struct {
		lat latency
		cfg Config
	}{
		// Exponential, mean 10 ms, hedge at 20 ms (about the p86).
		{exponential(10 * ms), Config{MaxAttempts: 2, Delay: 20 * ms, InitialRequests: 1}},
		// Lognormal, median 10 ms, sigma 1; hedge at the p95 (The Tail at
		// Scale's advice): 10 ms * e^1.645 = 51.8 ms.
		{lognormal(10*ms, 1), Config{MaxAttempts: 2, Delay: 51_800 * time.Microsecond, InitialRequests: 1}},
		// Three copies, 5 ms apart, with a 20 % chance of two at once.
		{exponential(10 * ms), Config{MaxAttempts: 3, Delay: 5 * ms, InitialRequests: 1, AdditionalChance: 0.2}},
	}
	for _, tt := range tests {
		t.Run(tt.lat.name, func(t *testing.T) {
			p := mustNew(t, tt.cfg)
			r := rand.New(rand.NewPCG(1, 2))
			times := make([]time.Duration, n)
			copies := 0
			var buf [MaxMaxAttempts]time.Duration
			for i := range times {
				var k int
				times[i], k, _ = simulate(t, p, tt.lat, r, buf[:])
				copies += k
			}
			slices.Sort(times)
			for _, prob := range []float64{0.5, 0.99} {
				q := quantile(p, tt.lat.survival, prob)
				h := q / 100
				f := (p.Survival(tt.lat.survival, q-h) - p.Survival(tt.lat.survival, q+h)) / float64(2*h)
				se := math.Sqrt(prob*(1-prob)/n) / f
				got := times[int(prob*n)]
				if diff := math.Abs(float64(got - q)); diff > z*se {
					t.Errorf("p%v: empirical %v, closed form %v: off by %.1f standard errors (%v)",
						prob*100, got, q, diff/se, time.Duration(se))
				}
				if prob == 0.99 {
					// The test can tell: the unhedged p99 is far outside.
					unhedged := quantile(mustNew(t, Config{MaxAttempts: 1, InitialRequests: 1}), tt.lat.survival, prob)
					if math.Abs(float64(unhedged-q)) < 10*z*se {
						t.Errorf("p99 hedged %v and unhedged %v too close for the test to tell", q, unhedged)
					}
				}
			}
			mean, want := float64(copies)/n, p.ExpectedCopies(tt.lat.survival)
			if diff := math.Abs(mean - want); diff > z*0.5/math.Sqrt(n) {
				t.Errorf("mean copies %.4f, ExpectedCopies %.4f", mean, want)
			}
		})
	}
}

// TestDelayZeroIsMin checks that with delay 0 and two copies both go out
// at once and the call ends at exactly min(X1, X2).
func TestDelayZeroIsMin(t *testing.T) {
	p := mustNew(t, Config{MaxAttempts: 2, Delay: 0, InitialRequests: 1})
	lat := lognormal(10*ms, 1)
	r := rand.New(rand.NewPCG(3, 4))
	var buf [MaxMaxAttempts]time.Duration
	for i := range 10_000 {
		got, k, x := simulate(t, p, lat, r, buf[:])
		if k != 2 || len(x) != 2 || got != min(x[0], x[1]) {
			t.Fatalf("call %d: T = %v with %d copies %v, want min of two", i, got, k, x)
		}
	}
	// And the closed form agrees: S_T(t) = S(t)^2.
	for _, at := range []time.Duration{ms, 10 * ms, 100 * ms} {
		if got, want := p.Survival(lat.survival, at), math.Pow(lat.survival(at), 2); math.Abs(got-want) > 1e-15 {
			t.Errorf("Survival(%v) = %v, want S^2 = %v", at, got, want)
		}
	}
	if got := p.ExpectedCopies(lat.survival); got != 2 {
		t.Errorf("ExpectedCopies = %v, want 2", got)
	}
}

// TestSurvivalPiecewise checks the two-copy closed form on both sides of
// the delay, and The Tail at Scale's load figure: hedging at the p95 costs
// about 5 % more copies.
func TestSurvivalPiecewise(t *testing.T) {
	lat := exponential(10 * ms)
	d := 20 * ms
	p := mustNew(t, Config{MaxAttempts: 2, Delay: d, InitialRequests: 1})
	for _, at := range []time.Duration{0, 5 * ms, d - 1, d, 30 * ms, 80 * ms} {
		want := lat.survival(at)
		if at >= d {
			want *= lat.survival(at - d)
		}
		if got := p.Survival(lat.survival, at); math.Abs(got-want) > 1e-15 {
			t.Errorf("Survival(%v) = %v, want %v", at, got, want)
		}
	}
	p95 := time.Duration(-math.Log(0.05) * float64(10*ms))
	tail := mustNew(t, Config{MaxAttempts: 2, Delay: p95, InitialRequests: 1})
	if got := tail.ExpectedCopies(lat.survival); math.Abs(got-1.05) > 1e-6 {
		t.Errorf("ExpectedCopies with the delay at the p95 = %v, want 1.05", got)
	}
}

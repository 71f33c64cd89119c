package topology

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/queueing"
)

// mmckmCase is an operating point of M/M/c/K+M: Poisson arrivals, c
// exponential servers of mean 10 ms (mu = 100/s), at most k in the system,
// exponential patience of rate theta while waiting.
type mmckmCase struct {
	name     string
	lambda   float64 // arrivals per second
	c, k     int
	theta    float64       // 1/s
	duration time.Duration // simulated window per seed
	// wqRSD is the relative SD of the served requests' mean wait from
	// one run of 1000 s, scaled (as 1/sqrt(T)) from the SD over 20 seeds
	// (101-120, 2026-12-02) of runs of 200, 1000, 120 and 150 s: a ratio
	// of correlated sums, it has no simple exact variance. Its own
	// sampling error (about ±16 % with 20 runs) is covered by the 4-SD
	// tolerance.
	wqRSD float64
}

// mmckmSeeds runs per case; the measures are averaged over them. Four
// runs of 1.5e5-5.4e5 arrivals each keep the whole test near 6 s.
const mmckmSeeds = 4

func (mc mmckmCase) queue() queueing.MMcKM {
	return queueing.MMcKM{Lambda: mc.lambda, Mu: 100, Theta: mc.theta, C: mc.c, K: mc.k}
}

func (mc mmckmCase) run(t *testing.T, ab Abandonment, seed uint64) measures {
	patience := time.Duration(float64(time.Second) / mc.theta)
	return runOracle(t, oracleCase{mc.name, mc.lambda, mc.c, mc.k - mc.c, exp(10 * ms), mc.duration, patience, ab}, seed)
}

// mmckmCheck is one simulated measure against its exact value, with the
// standard deviation of the simulated average (sd, same units).
type mmckmCheck struct {
	metric    string
	exact, sd float64
	get       func(measures) float64
}

// mmckmChecks returns the measures checked at an operating point and
// their standard deviations over seeds runs of window T seconds each.
//
// Derivation. The number in the system N(t) is a birth-death chain, so
// the time average of f(N) over T has variance v_f / T asymptotically,
// v_f exact from queueing.MMcKM.TimeAverageVariance (Whitt 1992): this
// gives Lq (f = (N-c)+) and L (f = N) directly. A count is its
// compensator plus a martingale M whose variance is the count's mean:
//   - served: N_s = mu int busy dt + M_s, Var M_s = mu Busy T;
//   - blocked minus p_b times arrivals: lambda int (1{N=K} - p_b) dt plus
//     a martingale with jumps 1 - p_b or -p_b at arrivals, variance
//     lambda T p_b (1 - p_b);
//   - abandoned minus p_a times arrivals: theta int ((N-c)+ - Lq) dt plus
//     a martingale with variance theta Lq T + p_a^2 lambda T.
//
// The two parts are correlated; the SD of their sum is at most the sum of
// their SDs (Minkowski), which the checks use: a bound, so the 4-SD
// tolerance below is at least 4 true SDs. Dividing by the arrivals,
// lambda T up to a relative 1/sqrt(lambda T), costs a second-order term.
// The 10 s warmup (over 100 relaxation times here) leaves no visible
// start-up bias.
func mmckmChecks(t *testing.T, mc mmckmCase, r queueing.MMcKMResult, seeds int) []mmckmCheck {
	q, T := mc.queue(), mc.duration.Seconds()
	v := func(f func(n int) float64) float64 {
		x, err := q.TimeAverageVariance(f)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	waiting := func(n int) float64 { return float64(max(n-q.C, 0)) }
	vL := v(func(n int) float64 { return float64(n) })
	vQ := v(waiting)
	vB := v(func(n int) float64 { return float64(min(n, q.C)) })
	vK := v(func(n int) float64 {
		if n == q.K {
			return 1
		}
		return 0
	})
	lt := q.Lambda * T
	s := math.Sqrt(float64(seeds)) // averaging independent seeds
	return []mmckmCheck{
		{"P(block)", r.PBlock, (math.Sqrt(r.PBlock*(1-r.PBlock)/lt) + math.Sqrt(vK/T)) / s,
			func(m measures) float64 { return m.pBlock }},
		{"P(abandon)", r.PAbandon, (math.Sqrt(r.PAbandon*(1+r.PAbandon)/lt) + q.Theta/q.Lambda*math.Sqrt(vQ/T)) / s,
			func(m measures) float64 { return m.pAbandon }},
		{"throughput (1/s)", r.Throughput, (math.Sqrt(q.Mu*r.Busy/T) + q.Mu*math.Sqrt(vB/T)) / s,
			func(m measures) float64 { return m.lambdaEff }},
		{"Lq", r.Lq, math.Sqrt(vQ/T) / s, func(m measures) float64 { return m.lq }},
		{"L", r.L, math.Sqrt(vL/T) / s, func(m measures) float64 { return m.l }},
		{"Wq of served (s)", r.WqServed, mc.wqRSD * math.Sqrt(1000/T) * r.WqServed / s, func(m measures) float64 { return m.wq }},
	}
}

// mmckmCases are the operating points: light to heavy overload, one to
// ten servers, short and long patience.
var mmckmCases = []mmckmCase{
	{"c10k20", 900, 10, 20, 20, 600 * time.Second, 0.0078},  // rho 0.9, patience 50 ms
	{"c1k5", 80, 1, 5, 50, 4000 * time.Second, 0.0099},      // rho 0.8, patience 20 ms
	{"c10k30", 1500, 10, 30, 10, 120 * time.Second, 0.0020}, // rho 1.5, patience 100 ms
	{"c5k25", 1000, 5, 25, 5, 150 * time.Second, 0.0014},    // rho 2, patience 200 ms
}

// TestOnExpiryIsMMcKM: a deadline-aware queue (abandonment on_expiry)
// with exponential patience is exactly M/M/c/K+M.
func TestOnExpiryIsMMcKM(t *testing.T) {
	var table strings.Builder
	table.WriteString("| operating point | metric | exact | simulated | error | tolerance (4 SD) |\n")
	table.WriteString("| --- | --- | --- | --- | --- | --- |\n")
	for _, mc := range mmckmCases {
		q := mc.queue()
		r, err := q.Solve()
		if err != nil {
			t.Fatal(err)
		}
		var runs []measures
		for seed := uint64(1); seed <= mmckmSeeds; seed++ {
			runs = append(runs, mc.run(t, OnExpiry, seed))
		}
		label := fmt.Sprintf("M/M/%d/%d+M, λ %g/s, μ 100/s, θ %g/s (ρ %.2g)", mc.c, mc.k, mc.lambda, mc.theta, mc.lambda/(100*float64(mc.c)))
		for _, chk := range mmckmChecks(t, mc, r, mmckmSeeds) {
			got := 0.0
			for _, m := range runs {
				got += chk.get(m) / float64(len(runs))
			}
			tol := 4 * chk.sd
			if math.Abs(got-chk.exact) > tol {
				t.Errorf("%s %s: simulated %.6g, exact %.6g: error %.3g exceeds %.3g (4 SD)", mc.name, chk.metric, got, chk.exact, got-chk.exact, tol)
			}
			fmt.Fprintf(&table, "| %s | %s | %.6g | %.6g | %+.2f %% | ±%.2f %% |\n",
				label, chk.metric, chk.exact, got, 100*(got-chk.exact)/chk.exact, 100*tol/chk.exact)
		}
		for _, m := range runs {
			if m.expiredQ != 0 {
				t.Errorf("%s: on_expiry holds %g expired requests on average; want none", mc.name, m.expiredQ)
			}
		}
	}
	syncDocTable(t, "MMCKM TABLE", "TestOnExpiryIsMMcKM", table.String())
}

// TestAtDequeueDeviatesFromMMcKM keeps the reproduction of issue 8: a
// server without cancellation (abandonment at_dequeue, the default) lets
// expired requests keep their queue places until they reach the head, so
// with a bounded queue arrivals are refused for room that only the dead
// hold. Where patience is short against the time to cross the queue its
// blocking is several times the M/M/c/K+M value, which on_expiry meets at
// the same point and seed. This is the documented behaviour of
// at_dequeue, not a bug to fix. (Measured 2026-12-02, seed 1: x4.6 and
// x2.2; how far it deviates depends on the operating point: x1.2 at
// M/M/10/20+M with lambda 1000/s and theta 20/s.)
func TestAtDequeueDeviatesFromMMcKM(t *testing.T) {
	for _, mc := range []mmckmCase{
		{"c10k20-short", 1000, 10, 20, 100, 100 * time.Second, 0}, // rho 1, patience 10 ms
		{"c10k60-over", 2000, 10, 60, 20, 60 * time.Second, 0},    // rho 2, patience 50 ms
	} {
		r, err := mc.queue().Solve()
		if err != nil {
			t.Fatal(err)
		}
		sd := mmckmChecks(t, mc, r, 1)[0].sd // P(block), one run
		onExp, dq := mc.run(t, OnExpiry, 1), mc.run(t, AtDequeue, 1)
		t.Logf("%s: P(block) exact %.4g, on_expiry %.4g, at_dequeue %.4g (x%.2f); at_dequeue holds %.3g expired requests on average",
			mc.name, r.PBlock, onExp.pBlock, dq.pBlock, dq.pBlock/r.PBlock, dq.expiredQ)
		if math.Abs(onExp.pBlock-r.PBlock) > 4*sd {
			t.Errorf("%s: on_expiry P(block) %.4g, exact %.4g: off by more than 4 SD (%.3g)", mc.name, onExp.pBlock, r.PBlock, 4*sd)
		}
		if dq.pBlock < 1.5*r.PBlock || dq.pBlock < r.PBlock+8*sd {
			t.Errorf("%s: at_dequeue P(block) %.4g, expected far above the M/M/c/K+M %.4g", mc.name, dq.pBlock, r.PBlock)
		}
		if !(dq.expiredQ > 0.1) || onExp.expiredQ != 0 {
			t.Errorf("%s: expired requests held on average: at_dequeue %g (expected many), on_expiry %g (expected none)", mc.name, dq.expiredQ, onExp.expiredQ)
		}
	}
}

// TestAtDequeueLiveQueueIsErlangA checks the queue metrics' split. With
// an unbounded queue, dropping the expired at the head costs no time, so
// the live requests of an at_dequeue queue behave exactly as Erlang A
// (M/M/c+M): MeanQueue and MeanInSystem, which count live requests only,
// must match it, while MeanExpiredInQueue counts the expired ones still
// holding a place (before the split they were counted as waiting, 7-13 %
// above the exact Lq).
func TestAtDequeueLiveQueueIsErlangA(t *testing.T) {
	// The Erlang A case of TestQueueingOracles, as M/M/c/K+M with a K beyond
	// any queue it reaches.
	mc := mmckmCase{"erlanga-live", 1000, 10, 1000, 20, 200 * time.Second, 0}
	r, err := mc.queue().Solve()
	if err != nil || r.PBlock > 1e-100 {
		t.Fatalf("K %d: P(block) %g, err %v", mc.k, r.PBlock, err)
	}
	const seeds = 2
	var lq, l, pab, expired float64
	for seed := uint64(1); seed <= seeds; seed++ {
		m := runOracle(t, oracleCase{mc.name, mc.lambda, mc.c, -1, exp(10 * ms), mc.duration, 50 * ms, AtDequeue}, seed)
		lq += m.lq / seeds
		l += m.l / seeds
		pab += m.pAbandon / seeds
		expired += m.expiredQ / seeds
	}
	got := map[string]float64{"P(abandon)": pab, "Lq": lq, "L": l}
	for _, chk := range mmckmChecks(t, mc, r, seeds) {
		x, ok := got[chk.metric]
		if ok && math.Abs(x-chk.exact) > 4*chk.sd {
			t.Errorf("%s: simulated %.6g, Erlang A %.6g: off by more than 4 SD (%.3g)", chk.metric, x, chk.exact, 4*chk.sd)
		}
	}
	t.Logf("Erlang A: Lq exact %.5g, live %.5g, expired still queued %.4g (live + expired %+.1f %%)", r.Lq, lq, expired, 100*(lq+expired-r.Lq)/r.Lq)
	if expired < 0.05*r.Lq {
		t.Errorf("expired still queued %.4g: expected several per cent of Lq %.4g", expired, r.Lq)
	}
}

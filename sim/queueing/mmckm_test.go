package queueing

import (
	"errors"
	"math"
	"testing"
)

func near(t *testing.T, name string, got, want, relTol float64) {
	t.Helper()
	if math.Abs(got-want) > relTol*math.Abs(want) {
		t.Errorf("%s = %.10g, want %.10g (±%g relative)", name, got, want, relTol)
	}
}

// M/M/1/2+M with lambda 1, mu 2, theta 1, by hand: pi is proportional to
// (1, 1/2, 1/2 * 1/(2+1)) = (3/5, 3/10, 1/10). An arrival finding the
// server busy (pi_1) waits at position 1: served with probability
// mu/(mu+theta) = 2/3, after a wait of mean 1/(mu+theta) = 1/3 given so.
func TestMMcKMByHand(t *testing.T) {
	r, err := MMcKM{Lambda: 1, Mu: 2, Theta: 1, C: 1, K: 2}.Solve()
	if err != nil {
		t.Fatal(err)
	}
	near(t, "PBlock", r.PBlock, 0.1, 1e-12)
	near(t, "Lq", r.Lq, 0.1, 1e-12)
	near(t, "L", r.L, 0.5, 1e-12)
	near(t, "Busy", r.Busy, 0.4, 1e-12)
	near(t, "PAbandon", r.PAbandon, 0.1, 1e-12)     // theta Lq / lambda
	near(t, "PServed", r.PServed, 0.8, 1e-12)       // 0.6 + 0.3 * 2/3
	near(t, "Throughput", r.Throughput, 0.8, 1e-12) // mu * Busy
	near(t, "WqServed", r.WqServed, 1.0/12, 1e-12)  // (0.3 * 2/3 * 1/3) / 0.8
	near(t, "WqAdmitted", r.WqAdmitted, 1.0/9, 1e-12)
}

// theta = 0 is M/M/c/K.
func TestMMcKMWithoutPatienceIsMMcK(t *testing.T) {
	for _, k := range []int{10, 20, 50} {
		r, err := MMcKM{Lambda: 900, Mu: 100, Theta: 0, C: 10, K: k}.Solve()
		if err != nil {
			t.Fatal(err)
		}
		q := MMcK{Lambda: 900, Mu: 100, C: 10, K: k}
		pb, _ := q.PBlock()
		wq, _ := q.Wq()
		near(t, "PBlock", r.PBlock, pb, 1e-12)
		near(t, "WqServed", r.WqServed, wq, 1e-12)
		near(t, "WqAdmitted", r.WqAdmitted, wq, 1e-12)
		if r.PAbandon != 0 {
			t.Errorf("K %d: PAbandon %g without patience", k, r.PAbandon)
		}
	}
	// And tiny theta is close to it: the model is continuous in theta.
	r, _ := MMcKM{Lambda: 900, Mu: 100, Theta: 1e-9, C: 10, K: 20}.Solve()
	pb, _ := MMcK{Lambda: 900, Mu: 100, C: 10, K: 20}.PBlock()
	near(t, "PBlock(theta 1e-9)", r.PBlock, pb, 1e-8)
}

// A K far beyond any likely queue is Erlang A, already in the package,
// overload included (Erlang A is stable for every load).
func TestMMcKMLargeKIsErlangA(t *testing.T) {
	for _, lambda := range []float64{500, 1000, 3000} {
		r, err := MMcKM{Lambda: lambda, Mu: 100, Theta: 20, C: 10, K: 5000}.Solve()
		if err != nil {
			t.Fatal(err)
		}
		pa, _ := ErlangA{Lambda: lambda, Mu: 100, Theta: 20, C: 10}.PAbandon()
		near(t, "PAbandon", r.PAbandon, pa, 1e-9)
		if r.PBlock > 1e-100 {
			t.Errorf("lambda %v: PBlock %g at K 5000", lambda, r.PBlock)
		}
	}
	// The Erlang A value TestBriefValues pins.
	r, _ := MMcKM{Lambda: 1000, Mu: 100, Theta: 20, C: 10, K: 5000}.Solve()
	near(t, "Erlang A P(abandon)", r.PAbandon, 0.077693, 1e-5)
}

// K = c has no queue: Erlang B, and nobody waits.
func TestMMcKMNoQueueIsErlangB(t *testing.T) {
	r, _ := MMcKM{Lambda: 900, Mu: 100, Theta: 20, C: 10, K: 10}.Solve()
	b, _ := ErlangB(10, 9)
	near(t, "PBlock", r.PBlock, b, 1e-12)
	if r.Lq != 0 || r.PAbandon != 0 || r.WqServed != 0 {
		t.Errorf("no queue: Lq %g PAbandon %g WqServed %g", r.Lq, r.PAbandon, r.WqServed)
	}
}

// Conservation: what comes in leaves, by one of three doors; and the
// arrival-side probability of service (the telescoping product in
// waitServed) matches the rate of services mu Busy / lambda.
func TestMMcKMConservation(t *testing.T) {
	for _, q := range []MMcKM{
		{Lambda: 900, Mu: 100, Theta: 20, C: 10, K: 20},
		{Lambda: 1500, Mu: 100, Theta: 10, C: 10, K: 30},
		{Lambda: 80, Mu: 100, Theta: 50, C: 1, K: 5},
		{Lambda: 1e5, Mu: 1, Theta: 0.01, C: 3, K: 100000}, // extreme overload: no overflow
	} {
		r, err := q.Solve()
		if err != nil {
			t.Fatal(err)
		}
		pi, _ := q.probs()
		cmu := float64(q.C) * q.Mu
		served := 0.0
		for n := 0; n < q.K; n++ {
			ps := 1.0
			if n >= q.C {
				ps = cmu / (cmu + float64(n-q.C+1)*q.Theta)
			}
			served += pi[n] * ps
		}
		near(t, "arrival-side P(served)", served, r.Throughput/q.Lambda, 1e-9)
		if sum := r.PBlock + r.PAbandon + r.PServed; math.Abs(sum-1) > 1e-9 {
			t.Errorf("%+v: PBlock + PAbandon + PServed = %.12g", q, sum)
		}
		near(t, "Little on the queue", r.Lq, q.Lambda*(1-r.PBlock)*r.WqAdmitted, 1e-9)
		near(t, "L = Lq + Busy", r.L, r.Lq+r.Busy, 1e-9)
		if math.IsNaN(r.WqServed) || r.WqServed < 0 {
			t.Errorf("%+v: WqServed %g", q, r.WqServed)
		}
	}
}

// The time-average variance constant of the number in an M/M/1 system is
// 2 rho (1 + rho) / (mu (1 - rho)^4) (Whitt 1992); M/M/1/K with a large K
// and no patience is M/M/1.
func TestTimeAverageVarianceMM1(t *testing.T) {
	q := MMcKM{Lambda: 0.5, Mu: 1, C: 1, K: 400}
	v, err := q.TimeAverageVariance(func(n int) float64 { return float64(n) })
	if err != nil {
		t.Fatal(err)
	}
	near(t, "M/M/1 rho 0.5 variance constant", v, 2*0.5*1.5/math.Pow(0.5, 4), 1e-9)
	// M/M/1/K at rho 2 is the mirror image (n -> K - n) of M/M/1/K at
	// rho 1/2 with rates swapped: the same variance, computed where the
	// mass sits at the top.
	over := MMcKM{Lambda: 2, Mu: 1, C: 1, K: 400}
	under := MMcKM{Lambda: 1, Mu: 2, C: 1, K: 400}
	vo, _ := over.TimeAverageVariance(func(n int) float64 { return float64(n) })
	vu, _ := under.TimeAverageVariance(func(n int) float64 { return float64(n) })
	near(t, "mirrored variance", vo, vu, 1e-9)
	near(t, "M/M/1 rho 1/2, mu 2", vu, 2*0.5*1.5/(2*math.Pow(0.5, 4)), 1e-9)
	// A constant has no variance.
	if v, _ := q.TimeAverageVariance(func(int) float64 { return 3 }); v != 0 {
		t.Errorf("constant: variance %g", v)
	}
}

func TestMMcKMErrors(t *testing.T) {
	for _, q := range []MMcKM{
		{Lambda: 1, Mu: 1, Theta: 1, C: 5, K: 4},
		{Lambda: 1, Mu: 1, Theta: -1, C: 1, K: 4},
		{Lambda: 0, Mu: 1, Theta: 1, C: 1, K: 4},
		{Lambda: 1, Mu: math.NaN(), Theta: 1, C: 1, K: 4},
		{Lambda: 1, Mu: 1, Theta: math.Inf(1), C: 1, K: 4},
		{Lambda: 1, Mu: 1, Theta: 1, C: 0, K: 4},
		{Lambda: 1, Mu: 1, Theta: 1, C: 1, K: maxStates + 1},
	} {
		if _, err := q.Solve(); !errors.Is(err, ErrParam) {
			t.Errorf("%+v: err = %v, want ErrParam", q, err)
		}
		if _, err := q.TimeAverageVariance(func(int) float64 { return 0 }); !errors.Is(err, ErrParam) {
			t.Errorf("%+v: variance err = %v, want ErrParam", q, err)
		}
	}
}

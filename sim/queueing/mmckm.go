package queueing

import "math"

// MMcKM is M/M/c/K+M, Erlang A with a finite system: Poisson arrivals of
// rate Lambda, C servers of rate Mu each, room for K customers in all (C
// in service, K-C waiting; arrivals that find K present are blocked), and
// exponential patience of rate Theta while waiting (a waiting customer
// abandons when it runs out; one in service stays). Theta = 0 is M/M/c/K.
// Rates are per second. The model is stable for every load, overload
// included, because K is finite.
type MMcKM struct {
	Lambda, Mu, Theta float64
	C, K              int
}

// MMcKMResult is the stationary behaviour of an M/M/c/K+M queue. The
// probabilities are fractions of all arrivals: PBlock + PAbandon + PServed
// = 1 (up to rounding; each is computed directly, not as the rest).
type MMcKMResult struct {
	// PBlock is the probability that an arrival finds K present (PASTA).
	PBlock float64
	// PAbandon is the probability that an arrival is admitted and then
	// abandons: theta Lq / lambda.
	PAbandon float64
	// PServed is the probability that an arrival is served.
	PServed float64
	// Lq and L are the mean numbers waiting and in the system.
	Lq, L float64
	// Busy is the mean number of busy servers.
	Busy float64
	// Throughput is the rate of served customers, 1/s: mu Busy.
	Throughput float64
	// WqServed is the mean wait of the customers who are served, s.
	WqServed float64
	// WqAdmitted is the mean time admitted customers spend waiting,
	// whether they are served or abandon, s: Lq / (lambda (1 - PBlock)).
	WqAdmitted float64
}

// maxStates bounds K, so that a typo cannot take minutes.
const maxStates = 10_000_000

func (q MMcKM) check() error {
	if !(q.Lambda > 0) || !(q.Mu > 0) || !(q.Theta >= 0) || math.IsInf(q.Theta, 0) ||
		math.IsInf(q.Lambda, 0) || math.IsInf(q.Mu, 0) || q.C < 1 || q.K < q.C || q.K > maxStates {
		return ErrParam
	}
	return nil
}

// death is the rate of leaving state n: services and abandonments.
func (q MMcKM) death(n int) float64 {
	return float64(min(n, q.C))*q.Mu + float64(max(n-q.C, 0))*q.Theta
}

// probs returns the stationary distribution pi_0..pi_K of the birth-death
// chain: pi_n proportional to prod_{i=1..n} lambda / death(i). It works in
// logarithms and rescales by the largest term, so that no load overflows.
func (q MMcKM) probs() ([]float64, error) {
	if err := q.check(); err != nil {
		return nil, err
	}
	logp := make([]float64, q.K+1)
	top := 0.0
	for n := 1; n <= q.K; n++ {
		logp[n] = logp[n-1] + math.Log(q.Lambda) - math.Log(q.death(n))
		top = max(top, logp[n])
	}
	sum := 0.0
	for n := range logp {
		logp[n] = math.Exp(logp[n] - top)
		sum += logp[n]
	}
	for n := range logp {
		logp[n] /= sum
	}
	return logp, nil
}

// Solve returns the queue's stationary measures.
func (q MMcKM) Solve() (MMcKMResult, error) {
	pi, err := q.probs()
	if err != nil {
		return MMcKMResult{}, err
	}
	var r MMcKMResult
	for n, p := range pi {
		r.L += float64(n) * p
		r.Lq += float64(max(n-q.C, 0)) * p
		r.Busy += float64(min(n, q.C)) * p
	}
	r.PBlock = pi[q.K]
	r.PAbandon = q.Theta * r.Lq / q.Lambda
	r.Throughput = q.Mu * r.Busy
	r.PServed = r.Throughput / q.Lambda
	r.WqAdmitted = r.Lq / (q.Lambda * (1 - r.PBlock))
	r.WqServed = q.waitServed(pi)
	return r, nil
}

// waitServed is the mean wait of served customers. An arrival that finds
// n >= c present (n < K) takes queue position j = n-c+1. At position i the
// next event ahead of it or to it comes at rate c mu + i theta: a service
// or an abandonment ahead (rate c mu + (i-1) theta) moves it to i-1, its
// own abandonment (theta) removes it. So it is served with probability
// prod_{i=1..j} (c mu + (i-1) theta) / (c mu + i theta) = c mu / (c mu +
// j theta), and, the holding times being independent of which event ends
// them, its wait given service is sum_{i=1..j} 1 / (c mu + i theta).
func (q MMcKM) waitServed(pi []float64) float64 {
	cmu := float64(q.C) * q.Mu
	served, wait := 0.0, 0.0
	sumInv := 0.0
	for n := 0; n < q.K; n++ {
		if n < q.C {
			served += pi[n]
			continue
		}
		j := float64(n - q.C + 1)
		sumInv += 1 / (cmu + j*q.Theta)
		ps := cmu / (cmu + j*q.Theta)
		served += pi[n] * ps
		wait += pi[n] * ps * sumInv
	}
	return wait / served
}

// TimeAverageVariance returns the asymptotic variance constant of the
// time average of f(N) over a run of length T, N the number in the
// system: T Var(mean of f) tends to it, in units of f^2 seconds. So a run
// of length T estimates E f(N) with standard error sqrt(v / T). For a
// birth-death chain (Whitt, "Asymptotic formulas for Markov processes
// with applications to simulation", Operations Research 40(2), 1992) it
// is 2 sum_{j<K} G_j^2 / (pi_j lambda), G_j = sum_{i<=j} pi_i (f(i) - E f):
// the Poisson equation solved edge by edge.
func (q MMcKM) TimeAverageVariance(f func(n int) float64) (float64, error) {
	pi, err := q.probs()
	if err != nil {
		return 0, err
	}
	mean := 0.0
	for n, p := range pi {
		mean += p * f(n)
	}
	// G_j summed from below where the mass below is small, and as minus
	// the sum above otherwise (the two are equal, G_K being 0): either way
	// only small terms add up, so that dividing by a tiny pi_j does not
	// magnify rounding.
	fwd := make([]float64, q.K+1)
	bwd := make([]float64, q.K+2)
	mass := make([]float64, q.K+1)
	for j := 0; j <= q.K; j++ {
		d := pi[j] * (f(j) - mean)
		if j == 0 {
			fwd[j], mass[j] = d, pi[j]
			continue
		}
		fwd[j], mass[j] = fwd[j-1]+d, mass[j-1]+pi[j]
	}
	for j := q.K; j >= 0; j-- {
		bwd[j] = bwd[j+1] + pi[j]*(f(j)-mean)
	}
	v := 0.0
	for j := 0; j < q.K; j++ {
		g := fwd[j]
		if mass[j] > 0.5 {
			g = -bwd[j+1]
		}
		if pi[j] > 0 {
			v += g * g / (pi[j] * q.Lambda)
		}
	}
	return 2 * v, nil
}

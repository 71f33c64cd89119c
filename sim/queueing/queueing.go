package queueing

import (
	"errors"
	"math"
)

// ErrUnstable is returned for a queue whose load meets or exceeds its
// capacity, where steady-state waiting times do not exist.
var ErrUnstable = errors.New("queueing: unstable (rho >= 1)")

// ErrParam is returned for non-positive rates or server counts.
var ErrParam = errors.New("queueing: invalid parameter")

// ErlangB returns the blocking probability of M/M/c/c with offered load a
// Erlangs.
func ErlangB(c int, a float64) (float64, error) {
	if c < 0 || !(a > 0) {
		return 0, ErrParam
	}
	b := 1.0
	for k := 1; k <= c; k++ {
		b = a * b / (float64(k) + a*b)
	}
	return b, nil
}

// MMc is the M/M/c queue with an unbounded FIFO queue.
type MMc struct {
	Lambda float64 // arrival rate, 1/s
	Mu     float64 // service rate of one server, 1/s
	C      int     // servers
}

func (q MMc) check() error {
	if !(q.Lambda > 0) || !(q.Mu > 0) || q.C < 1 {
		return ErrParam
	}
	if q.Lambda >= float64(q.C)*q.Mu {
		return ErrUnstable
	}
	return nil
}

// PWait returns Erlang C, the probability that an arrival waits.
func (q MMc) PWait() (float64, error) {
	if err := q.check(); err != nil {
		return 0, err
	}
	a := q.Lambda / q.Mu
	rho := a / float64(q.C)
	b, _ := ErlangB(q.C, a)
	return b / (1 - rho*(1-b)), nil
}

// Wq returns the mean waiting time in queue, seconds.
func (q MMc) Wq() (float64, error) {
	c, err := q.PWait()
	if err != nil {
		return 0, err
	}
	return c / (float64(q.C)*q.Mu - q.Lambda), nil
}

// W returns the mean time in system, seconds.
func (q MMc) W() (float64, error) {
	wq, err := q.Wq()
	return wq + 1/q.Mu, err
}

// SojournQuantileMM1 returns the p-quantile of the sojourn time of M/M/1,
// which is exponential with rate mu - lambda.
func SojournQuantileMM1(lambda, mu, p float64) (float64, error) {
	if !(lambda > 0) || !(mu > 0) || !(p >= 0 && p < 1) {
		return 0, ErrParam
	}
	if lambda >= mu {
		return 0, ErrUnstable
	}
	return -math.Log(1-p) / (mu - lambda), nil
}

// MG1Wq returns the Pollaczek-Khinchine mean wait of M/G/1 with arrival
// rate lambda and service-time moments es = E[S], es2 = E[S^2].
func MG1Wq(lambda, es, es2 float64) (float64, error) {
	if !(lambda > 0) || !(es > 0) || !(es2 >= es*es) {
		return 0, ErrParam
	}
	rho := lambda * es
	if rho >= 1 {
		return 0, ErrUnstable
	}
	return lambda * es2 / (2 * (1 - rho)), nil
}

// MMcK is M/M/c with room for K requests in the system (c in service,
// K-c waiting); arrivals that find K present are blocked.
type MMcK struct {
	Lambda, Mu float64
	C, K       int
}

// probs returns the stationary distribution pi_0..pi_K.
func (q MMcK) probs() ([]float64, error) {
	if !(q.Lambda > 0) || !(q.Mu > 0) || q.C < 1 || q.K < q.C || q.K > 1e7 {
		return nil, ErrParam
	}
	pi := make([]float64, q.K+1)
	pi[0] = 1
	sum := 1.0
	for n := 1; n <= q.K; n++ {
		pi[n] = pi[n-1] * q.Lambda / (float64(min(n, q.C)) * q.Mu)
		sum += pi[n]
	}
	for n := range pi {
		pi[n] /= sum
	}
	return pi, nil
}

// PBlock returns the probability that an arrival is blocked, pi_K.
func (q MMcK) PBlock() (float64, error) {
	pi, err := q.probs()
	if err != nil {
		return 0, err
	}
	return pi[q.K], nil
}

// Wq returns the mean wait of admitted requests, by Little's law on the
// queue: Lq / (lambda (1 - pi_K)).
func (q MMcK) Wq() (float64, error) {
	pi, err := q.probs()
	if err != nil {
		return 0, err
	}
	lq := 0.0
	for n := q.C + 1; n <= q.K; n++ {
		lq += float64(n-q.C) * pi[n]
	}
	return lq / (q.Lambda * (1 - pi[q.K])), nil
}

// ErlangA is M/M/c+M: customers abandon the queue after an exponential
// patience of rate Theta.
type ErlangA struct {
	Lambda, Mu, Theta float64
	C                 int
}

// PAbandon returns the probability that a customer abandons.
func (q ErlangA) PAbandon() (float64, error) {
	if !(q.Lambda > 0) || !(q.Mu > 0) || !(q.Theta > 0) || q.C < 1 {
		return 0, ErrParam
	}
	// Truncate where the chain's terms fall below 1e-300 of the largest:
	// beyond n = c, each step multiplies by lambda/(c mu + (n-c) theta),
	// which tends to 0.
	var pi []float64
	p, sum, maxP := 1.0, 1.0, 1.0
	pi = append(pi, 1)
	for n := 1; n < 1e7; n++ {
		death := float64(min(n, q.C))*q.Mu + float64(max(n-q.C, 0))*q.Theta
		p *= q.Lambda / death
		pi = append(pi, p)
		sum += p
		maxP = max(maxP, p)
		if n > q.C && p < 1e-18*maxP {
			break
		}
	}
	lq := 0.0
	for n := q.C + 1; n < len(pi); n++ {
		lq += float64(n-q.C) * pi[n] / sum
	}
	return q.Theta * lq / q.Lambda, nil
}

// Package ctmc analyses the experiment files in the class Metafor (HotOS
// 2025, "Analyzing Metastable Failures") models as a continuous-time
// Markov chain: one service with c workers and room for K waiting
// requests, one open-loop Poisson client, exponential work, client
// timeouts and a retry orbit. The state is (n, m): n requests at the
// service (waiting or in service, 0..c+K), m requests in the retry orbit
// (waiting out a backoff, 0..M). The chain is truncated at an orbit size
// M chosen so that the stationary mass at m = M is below a stated bound;
// the stationary distribution and the mean first-passage times between
// its low- and high-backlog modes are solved exactly (block tridiagonal
// elimination over the orbit levels). See docs/edge.md.
package ctmc

import (
	"errors"
	"fmt"
	"math"
)

// ErrClass is returned for files outside the class the chain models.
var ErrClass = errors.New("not in the CTMC class")

// Params are the chain's rates, per second.
type Params struct {
	// Lambda is the client's Poisson rate of new requests.
	Lambda float64
	// Mu is the service rate of one worker (1 / mean work).
	Mu float64
	// Workers is c; Capacity is c + K, the most requests at the service.
	Workers, Capacity int
	// Theta is the timeout rate of each request at the service (1 / the
	// timeout's mean); 0 without a timeout.
	Theta float64
	// Nu is the rate at which each orbit request comes back (1 / the
	// backoff's mean).
	Nu float64
	// RetryTimeout and RetryRejected are the probabilities that a timed
	// out or rejected attempt goes to the orbit (1 - 1/attempts when the
	// retry policy retries that outcome, else 0).
	RetryTimeout, RetryRejected float64
}

func (p Params) validate() error {
	if err := validateQueue(p.Lambda, p.Mu, p.Theta, p.Workers, p.Capacity); err != nil {
		return err
	}
	switch {
	case !(p.RetryTimeout >= 0 && p.RetryTimeout < 1 && p.RetryRejected >= 0 && p.RetryRejected < 1):
		return fmt.Errorf("%w: retry probabilities must be in [0, 1)", ErrClass)
	case p.retries() && (!(p.Nu > 0) || math.IsInf(p.Nu, 0)):
		return fmt.Errorf("%w: backoff rate %v must be positive", ErrClass, p.Nu)
	}
	return nil
}

// retries reports whether any attempt can enter the orbit.
func (p Params) retries() bool {
	return p.RetryRejected > 0 || (p.RetryTimeout > 0 && p.Theta > 0)
}

// Options tune the analysis.
type Options struct {
	// Truncation bounds the stationary mass at the orbit boundary m = M;
	// 0 means DefaultTruncation.
	Truncation float64
	// MaxStates bounds the chain; 0 means MaxStates.
	MaxStates int
}

// Modes splits the states by backlog n+m.
type Modes struct {
	// Bimodal is true when the marginal of n+m has two peaks; Threshold
	// is then the trough between them. Otherwise Threshold is c+K (the
	// high mode is "more requests than the service can hold").
	Bimodal bool `json:"bimodal"`
	// Threshold: the high-backlog mode is n+m > Threshold.
	Threshold int `json:"threshold"`
	// LowPeak and HighPeak are the most likely n+m in each mode.
	LowPeak  int     `json:"low_peak"`
	HighPeak int     `json:"high_peak"`
	LowMass  float64 `json:"low_mass"`
	HighMass float64 `json:"high_mass"`
}

// Result is the analysis of one chain.
type Result struct {
	Params Params
	// M is the orbit bound; States (c+K+1)(M+1).
	M, States int
	// TruncationError is the stationary mass at m = M; TruncationBound
	// the bound it is below.
	TruncationError, TruncationBound float64
	// Residual is max |(pi Q)_j| of the solution.
	Residual float64
	// MarginalN[n], MarginalM[m] and MarginalBacklog[s] (s = n+m) are the
	// stationary marginals.
	MarginalN, MarginalM, MarginalBacklog []float64
	MeanN, MeanM                          float64
	Modes                                 Modes
	// LowToHigh and HighToLow are the mean first-passage times in
	// seconds, from the stationary distribution conditioned on one mode
	// to the first state of the other.
	LowToHigh, HighToLow float64
}

// Analyze truncates, solves and summarises the chain of p.
func Analyze(p Params, opt Options) (*Result, error) {
	if err := p.validate(); err != nil {
		return nil, err
	}
	eps := opt.Truncation
	if eps == 0 {
		eps = DefaultTruncation
	}
	if !(eps > 0 && eps < 1) {
		return nil, fmt.Errorf("truncation bound %v must be in (0, 1)", eps)
	}
	maxStates := opt.MaxStates
	if maxStates <= 0 || maxStates > MaxStates {
		maxStates = MaxStates
	}
	P := p.Capacity + 1
	M := 0
	if p.retries() {
		M = firstM
	}
	var (
		c    chain
		pi   [][]float64
		tail float64
	)
	for {
		states := P * (M + 1)
		if states > maxStates || float64(P)*float64(P)*float64(M+1) > MaxCells {
			msg := fmt.Sprintf("%d x %d states (queue x orbit), over the limit of %d states and %d block cells", P, M+1, maxStates, MaxCells)
			if pi != nil {
				msg += fmt.Sprintf("; at M = %d the boundary mass was %.3g, above the bound %.3g", c.M, tail, eps)
			}
			return nil, fmt.Errorf("%w: %s", ErrTooLarge, msg)
		}
		c = chain{p: p, M: M}
		var err error
		pi, err = c.stationary()
		if err != nil {
			return nil, err
		}
		tail = 0
		if M > 0 {
			for _, v := range pi[M] {
				tail += v
			}
		}
		if tail < eps {
			break
		}
		M *= 2
	}
	r := &Result{Params: p, M: M, States: P * (M + 1), TruncationError: tail, TruncationBound: eps, Residual: c.residual(pi)}
	r.MarginalN = make([]float64, P)
	r.MarginalM = make([]float64, M+1)
	r.MarginalBacklog = make([]float64, P+M)
	for m := range pi {
		for n, v := range pi[m] {
			r.MarginalN[n] += v
			r.MarginalM[m] += v
			r.MarginalBacklog[n+m] += v
			r.MeanN += float64(n) * v
			r.MeanM += float64(m) * v
		}
	}
	r.Modes = modes(r.MarginalBacklog, p.Capacity)
	t := r.Modes.Threshold
	high := func(n, m int) bool { return n+m > t }
	low := func(n, m int) bool { return n+m <= t }
	var err error
	if r.LowToHigh, err = passage(c, pi, low, high); err != nil {
		return nil, fmt.Errorf("low to high: %w", err)
	}
	if r.HighToLow, err = passage(c, pi, high, low); err != nil {
		return nil, fmt.Errorf("high to low: %w", err)
	}
	return r, nil
}

// passage is the mean time to reach to, starting from pi conditioned on
// from.
func passage(c chain, pi [][]float64, from, to func(n, m int) bool) (float64, error) {
	h, err := c.hitting(to)
	if err != nil {
		return 0, err
	}
	var num, den float64
	for m := range pi {
		for n, v := range pi[m] {
			if from(n, m) {
				num += v * h[m][n]
				den += v
			}
		}
	}
	if !(den > 0) {
		// The mode has no stationary mass to start from (below the
		// floating-point range): start from its first state instead.
		for m := range pi {
			for n := range pi[m] {
				if from(n, m) {
					return check(h[m][n])
				}
			}
		}
		return 0, errors.New("empty mode")
	}
	return check(num / den)
}

func check(v float64) (float64, error) {
	if !(v > 0) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("first-passage time %v is not finite and positive", v)
	}
	return v, nil
}

// noiseFloor: peaks of the backlog marginal below this share of its
// largest value are not told from round-off.
const noiseFloor = 1e-14

// modes finds the two largest peaks of the backlog marginal p and the
// trough between them; with one peak the threshold is capacity.
func modes(p []float64, capacity int) Modes {
	top := 0.0
	for _, v := range p {
		top = math.Max(top, v)
	}
	var peaks []int
	for s, v := range p {
		if v < noiseFloor*top {
			continue
		}
		left := s == 0 || v > p[s-1]
		right := s == len(p)-1 || v >= p[s+1]
		if left && right {
			peaks = append(peaks, s)
		}
	}
	md := Modes{Threshold: min(capacity, len(p)-2)}
	if len(peaks) >= 2 {
		// The two highest peaks, in order of backlog.
		a, b := -1, -1
		for _, s := range peaks {
			switch {
			case a < 0 || p[s] > p[a]:
				a, b = s, a
			case b < 0 || p[s] > p[b]:
				b = s
			}
		}
		if a > b {
			a, b = b, a
		}
		trough := a
		for s := a; s <= b; s++ {
			if p[s] < p[trough] {
				trough = s
			}
		}
		md.Bimodal, md.Threshold = true, trough
	}
	md.LowPeak, md.HighPeak = 0, md.Threshold+1
	for s, v := range p {
		if s <= md.Threshold {
			md.LowMass += v
			if v > p[md.LowPeak] {
				md.LowPeak = s
			}
		} else {
			md.HighMass += v
			if v > p[md.HighPeak] {
				md.HighPeak = s
			}
		}
	}
	return md
}

// ModesOf splits a backlog marginal p into its modes (as Analyze does for
// the orbit chain's n+m): at the trough between its two highest peaks,
// or at capacity with one peak.
func ModesOf(p []float64, capacity int) Modes { return modes(p, capacity) }

// validateQueue checks what both chains need of the queue: positive,
// finite arrival and service rates (per second), a finite timeout rate
// (0: none), at least one worker and room for every worker.
func validateQueue(lambda, mu, theta float64, workers, capacity int) error {
	switch {
	case !(lambda > 0) || math.IsInf(lambda, 0):
		return fmt.Errorf("%w: arrival rate %v must be positive", ErrClass, lambda)
	case !(mu > 0) || math.IsInf(mu, 0):
		return fmt.Errorf("%w: service rate %v must be positive", ErrClass, mu)
	case workers < 1 || capacity < workers:
		return fmt.Errorf("%w: %d workers, capacity %d", ErrClass, workers, capacity)
	case !(theta >= 0) || math.IsInf(theta, 0):
		return fmt.Errorf("%w: timeout rate %v", ErrClass, theta)
	}
	return nil
}

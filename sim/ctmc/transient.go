package ctmc

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// sparse is a generator in compressed rows: the transitions out of state
// i are to[start[i]:start[i+1]] at rate[...]; exit[i] is their sum, and
// backlog[i] the requests at the service in state i (the level function).
type sparse struct {
	n       int
	start   []int32
	to      []int32
	rate    []float64
	exit    []float64
	backlog []int32
}

func (s *sparse) add(to int32, rate float64) {
	if rate > 0 {
		s.to = append(s.to, to)
		s.rate = append(s.rate, rate)
	}
}

func (s *sparse) finish() {
	s.exit = make([]float64, s.n)
	for i := 0; i < s.n; i++ {
		for k := s.start[i]; k < s.start[i+1]; k++ {
			s.exit[i] += s.rate[k]
		}
	}
}

// LevelHit is the probability of reaching a backlog level.
type LevelHit struct {
	// Level: the locked-in states are those with at least Level requests
	// at the service (queued or in service).
	Level int `json:"level"`
	// StepS is the time between observations, WithinS the horizon and
	// WarmupS the time before which no observation counts, in seconds.
	StepS, WithinS, WarmupS float64
	// Observations is the number of observation times k·StepS in
	// (WarmupS, WithinS].
	Observations int `json:"observations"`
	// Probability is P(the backlog is at least Level at some observation
	// time), from the empty system; Bound is the probability mass the
	// computation dropped (uniformisation's truncated Poisson tails): the
	// true value is in [Probability, Probability + Bound].
	Probability float64 `json:"probability"`
	Bound       float64 `json:"error_bound"`
	// States is the chain's size; Uniformization its rate Λ per second;
	// Products the vector-matrix products computed.
	States         int     `json:"states"`
	Uniformization float64 `json:"uniformization_rate"`
	Products       int     `json:"products"`
}

// MaxProducts bounds a transient analysis's vector-matrix products (the
// uniformisation rate times the horizon, about).
const MaxProducts = 10_000_000

// ErrCost is returned when a transient analysis would take more than
// MaxProducts products or more than the caller's cell budget.
var ErrCost = errors.New("transient analysis too long")

// poissonTail: a uniformisation step stops at the first Poisson weight
// past the mean below it.
const poissonTail = 1e-18

// levelHit computes P(backlog >= level at an observation time k·step,
// warmup < k·step <= within) for the chain s started empty (state 0),
// by uniformisation: between observations the distribution moves by
// exp(Q·step) = sum_j Pois(Λ·step; j) P^j with P = I + Q/Λ; at each
// observation after the warm-up the mass at or above the level is moved
// to the absorbed total. maxCells bounds products × transitions (0: no
// bound beyond MaxProducts).
func (s *sparse) levelHit(ctx context.Context, level int, step, within, warmup float64, maxCells float64) (LevelHit, error) {
	h := LevelHit{Level: level, StepS: step, WithinS: within, WarmupS: warmup, States: s.n}
	if !(step > 0) || !(within >= step) || math.IsInf(within, 0) || !(warmup >= 0) {
		return h, fmt.Errorf("observations every %vs over %vs after %vs: want 0 < step <= within", step, within, warmup)
	}
	K := int(math.Floor(within/step + 1e-9))
	lam := 0.0
	for _, e := range s.exit {
		lam = math.Max(lam, e)
	}
	lam *= 1.0001
	h.Uniformization = lam
	a := lam * step
	// Split a step whose Λ·step is large, so that e^(-a) stays far from
	// underflow.
	sub := 1
	if a > 400 {
		sub = int(math.Ceil(a / 400))
		a /= float64(sub)
	}
	// The Poisson weights, up to the first term past the mean below
	// poissonTail; the terms after it sum to less than its last weight
	// times a/(j+1-a) (a geometric bound), which is the tail's bound.
	var w []float64
	tail := 0.0
	if lam > 0 {
		w = append(w, math.Exp(-a))
		for j := 1; ; j++ {
			w = append(w, w[j-1]*a/float64(j))
			if float64(j) > a+1 && w[j] < poissonTail {
				tail = w[j] * a / (float64(j+1) - a)
				break
			}
		}
	}
	products := float64(K) * float64(sub) * float64(len(w))
	if products > MaxProducts || maxCells > 0 && products*float64(len(s.to)+s.n) > maxCells {
		return h, fmt.Errorf("%w: %.3g products of a %d-state chain (%d observations, Λ = %.4g/s); at most %d", ErrCost, products, s.n, K, lam, MaxProducts)
	}
	x := make([]float64, s.n)
	y := make([]float64, s.n)
	acc := make([]float64, s.n)
	x[0] = 1
	for k := 1; k <= K; k++ {
		if err := ctx.Err(); err != nil {
			return h, err
		}
		for r := 0; r < sub; r++ {
			if lam == 0 {
				break
			}
			clear(acc)
			mass := 0.0
			for _, v := range x {
				mass += v
			}
			for j, wj := range w {
				if j > 0 {
					s.step(x, y, lam)
					x, y = y, x
					h.Products++
				}
				for i, v := range x {
					acc[i] += wj * v
				}
			}
			h.Bound += tail * mass
			x, acc = acc, x
		}
		if float64(k)*step > warmup+1e-12 {
			for i, b := range s.backlog {
				if int(b) >= level {
					h.Probability += x[i]
					x[i] = 0
				}
			}
			h.Observations++
		}
	}
	return h, nil
}

// step sets y = x (I + Q/lam).
func (s *sparse) step(x, y []float64, lam float64) {
	clear(y)
	for i, v := range x {
		if v == 0 {
			continue
		}
		y[i] += v * (1 - s.exit[i]/lam)
		f := v / lam
		for k := s.start[i]; k < s.start[i+1]; k++ {
			y[s.to[k]] += f * s.rate[k]
		}
	}
}

// LevelOptions are a transient analysis's observation times.
type LevelOptions struct {
	// Level is the backlog that counts as locked in.
	Level int
	// Step, Within and Warmup are in seconds: observations every Step up
	// to Within, counted after Warmup.
	Step, Within, Warmup float64
	// MaxCells, if positive, bounds products × (transitions + states).
	MaxCells float64
}

// LevelProbability is the exact chain's probability of reaching
// opt.Level within opt.Within (see sparse.levelHit).
func (p ExactParams) LevelProbability(ctx context.Context, opt LevelOptions) (LevelHit, error) {
	if err := p.validate(); err != nil {
		return LevelHit{}, err
	}
	if opt.Level < 1 || opt.Level > p.Capacity {
		return LevelHit{}, fmt.Errorf("level %d must be in [1, %d], the places at the service", opt.Level, p.Capacity)
	}
	return p.build().levelHit(ctx, opt.Level, opt.Step, opt.Within, opt.Warmup, opt.MaxCells)
}

// stationary is the stationary distribution of s by power iteration of
// its uniformised matrix P = I + Q/Λ (aperiodic: Λ is above every exit
// rate), from the empty state, until an iteration moves less than tol
// in total variation; it returns the distribution and that last move.
func (s *sparse) stationary(ctx context.Context, tol float64, maxIter int) ([]float64, float64, error) {
	lam := 0.0
	for _, e := range s.exit {
		lam = math.Max(lam, e)
	}
	lam *= 1.0001
	x := make([]float64, s.n)
	y := make([]float64, s.n)
	x[0] = 1
	if lam == 0 {
		return x, 0, nil
	}
	move := math.Inf(1)
	for it := 0; it < maxIter; it++ {
		if it%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, 0, err
			}
		}
		s.step(x, y, lam)
		if it%64 == 0 {
			move = 0
			for i := range x {
				move += math.Abs(y[i] - x[i])
			}
		}
		x, y = y, x
		if move < tol {
			return x, move, nil
		}
	}
	return nil, move, fmt.Errorf("%w: the stationary distribution did not settle in %d iterations (last move %.3g)", ErrCost, maxIter, move)
}

// Stationary is the exact chain's stationary distribution of the
// requests at the service (the backlog), by power iteration to a total
// variation move below 1e-13 per step; Move is that last move.
func (p ExactParams) Stationary(ctx context.Context) (marginal []float64, move float64, err error) {
	if err := p.validate(); err != nil {
		return nil, 0, err
	}
	s := p.build()
	iters := int(min(MaxStationaryIterations, MaxStationaryCells/float64(len(s.to)+s.n)))
	x, move, err := s.stationary(ctx, 1e-13, iters)
	if err != nil {
		return nil, move, err
	}
	marginal = make([]float64, p.Capacity+1)
	for i, v := range x {
		marginal[s.backlog[i]] += v
	}
	return marginal, move, nil
}

// MaxStationaryIterations bounds the power iteration, and
// MaxStationaryCells its iterations times (transitions + states): about
// a minute of CPU.
const (
	MaxStationaryIterations = 2_000_000
	MaxStationaryCells      = 2e10
)

// sparse is the orbit chain as a sparse generator; the backlog is n, the
// requests at the service.
func (c chain) sparse() *sparse {
	P := c.phases()
	L := c.M + 1
	s := &sparse{n: P * L, start: make([]int32, P*L+1), backlog: make([]int32, P*L)}
	idx := func(n, m int) int32 { return int32(m*P + n) }
	for m := 0; m < L; m++ {
		for n := 0; n < P; n++ {
			i := idx(n, m)
			s.backlog[i] = int32(n)
			o := c.out(n, m)
			if n+1 < P {
				s.add(idx(n+1, m), o.local[0])
			}
			if n > 0 {
				s.add(idx(n-1, m), o.local[1])
			}
			if o.up > 0 {
				s.add(idx(n, m+1), o.up)
			}
			if o.down > 0 {
				s.add(idx(o.downN, m-1), o.down)
			}
			s.start[i+1] = int32(len(s.to))
		}
	}
	s.finish()
	return s
}

// LevelProbability is the orbit chain's probability of at least
// opt.Level requests at the service at an observation time, with the
// orbit truncated at the M of r (moves past it are dropped, as in
// Analyze).
func (r *Result) LevelProbability(ctx context.Context, opt LevelOptions) (LevelHit, error) {
	if opt.Level < 1 || opt.Level > r.Params.Capacity {
		return LevelHit{}, fmt.Errorf("level %d must be in [1, %d], the places at the service", opt.Level, r.Params.Capacity)
	}
	c := chain{p: r.Params, M: r.M}
	return c.sparse().levelHit(ctx, opt.Level, opt.Step, opt.Within, opt.Warmup, opt.MaxCells)
}

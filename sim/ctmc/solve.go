package ctmc

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Limits bound the state space the solver accepts (docs/security.md).
const (
	// MaxStates is the most states (n, m) a chain may have.
	MaxStates = 2_000_000
	// MaxCells bounds (c+K+1)² x (M+1), the numbers the block
	// elimination keeps (8 bytes each: 512 MB).
	MaxCells = 64_000_000
	// DefaultTruncation is the default bound on the truncation error: the
	// stationary mass at the orbit's boundary m = M.
	DefaultTruncation = 1e-12
	// firstM is the first orbit bound tried; it doubles until the mass at
	// the boundary is below the bound.
	firstM = 16
)

// ErrTooLarge is returned when the chain needed for the truncation bound
// is over MaxStates or MaxCells.
var ErrTooLarge = errors.New("state space too large")

// chain is the truncated generator in block form: levels are orbit sizes
// m = 0..M, phases the requests at the service n = 0..N.
type chain struct {
	p Params
	M int
}

func (c chain) phases() int { return c.p.Capacity + 1 }

// rates of the transitions out of (n, m), by kind. up and down are the
// rates to (n', m+1) and (n', m-1): upN and downN give n'.
type out struct {
	local       [2]float64 // to (n+1, m) and (n-1, m)
	up, down    float64
	downN       int // n' of the down move
	diag        float64
	lostAtLimit float64 // rate of moves past m = M, dropped
}

func (c chain) out(n, m int) out {
	p := c.p
	var o out
	N := p.Capacity
	full := n == N
	if !full {
		o.local[0] = p.Lambda
	}
	o.local[1] = p.Mu * float64(min(n, p.Workers))
	up := p.Theta * float64(n) * p.RetryTimeout
	if full {
		up += p.Lambda * p.RetryRejected
	}
	if m < c.M {
		o.up = up
	} else {
		o.lostAtLimit = up
	}
	if m > 0 {
		r := float64(m) * p.Nu
		if !full {
			o.down, o.downN = r, n+1
		} else {
			// Rejected again: stays in the orbit (no move) with
			// probability RetryRejected, gives up otherwise.
			o.down, o.downN = r*(1-p.RetryRejected), n
		}
	}
	o.diag = -(o.local[0] + o.local[1] + o.up + o.down)
	return o
}

// blockSystem is a block tridiagonal linear system: for each level l,
// A[l] x[l-1] + B[l] x[l] + C[l] x[l+1] = b[l].
type blockSystem struct {
	A, B, C []*mat.Dense
	b       []*mat.VecDense
}

// solve is block Gaussian elimination without block pivoting (the
// systems here are diagonally dominant by rows or columns), with LU and
// partial pivoting within each diagonal block.
func (s blockSystem) solve() ([]*mat.VecDense, error) {
	L := len(s.B)
	P, _ := s.B[0].Dims()
	lus := make([]*mat.LU, L)
	y := make([]*mat.VecDense, L)
	var prev *mat.LU
	for l := 0; l < L; l++ {
		d := mat.DenseCopyOf(s.B[l])
		yl := mat.VecDenseCopyOf(s.b[l])
		if l > 0 && s.A[l] != nil {
			// G = A_l * inv(B'_{l-1}); B'_l -= G C_{l-1}; y_l -= G y_{l-1}.
			var invC mat.Dense // inv(B'_{l-1}) C_{l-1}
			if err := prev.SolveTo(&invC, false, s.C[l-1]); err != nil {
				return nil, fmt.Errorf("level %d: %w", l, err)
			}
			var invY mat.VecDense
			if err := prev.SolveVecTo(&invY, false, y[l-1]); err != nil {
				return nil, fmt.Errorf("level %d: %w", l, err)
			}
			var t mat.Dense
			t.Mul(s.A[l], &invC)
			d.Sub(d, &t)
			var tv mat.VecDense
			tv.MulVec(s.A[l], &invY)
			yl.SubVec(yl, &tv)
		}
		lu := &mat.LU{}
		lu.Factorize(d)
		if _, sign := lu.LogDet(); sign == 0 {
			return nil, fmt.Errorf("singular block at level %d", l)
		}
		lus[l], y[l], prev = lu, yl, lu
	}
	x := make([]*mat.VecDense, L)
	for l := L - 1; l >= 0; l-- {
		r := mat.VecDenseCopyOf(y[l])
		if l < L-1 {
			var t mat.VecDense
			t.MulVec(s.C[l], x[l+1])
			r.SubVec(r, &t)
		}
		x[l] = mat.NewVecDense(P, nil)
		if err := lus[l].SolveVecTo(x[l], false, r); err != nil {
			return nil, fmt.Errorf("level %d: %w", l, err)
		}
	}
	return x, nil
}

// stationary solves pi Q = 0, sum pi = 1. The balance equation of an
// anchor state is replaced by x(anchor) = 1; the system is the better
// conditioned the likelier the anchor, so a first solve anchored at the
// likeliest n of the M/M/c/K queue without the orbit finds the likeliest
// state, and a second solve is anchored there. It returns pi [m][n].
func (c chain) stationary() ([][]float64, error) {
	e := erlangMode(c.p)
	pi, err := c.stationaryAt(e, 0)
	if err != nil {
		if pi, err = c.stationaryAt(c.p.Capacity, 0); err != nil {
			return nil, err
		}
	}
	bn, bm := 0, 0
	for m := range pi {
		for n, v := range pi[m] {
			if v > pi[bm][bn] {
				bn, bm = n, m
			}
		}
	}
	if bn == e && bm == 0 {
		return pi, nil
	}
	return c.stationaryAt(bn, bm)
}

// erlangMode is the likeliest n of the M/M/c/(c+K) queue of p.
func erlangMode(p Params) int {
	best, logp, bestLog := 0, 0.0, 0.0
	for n := 1; n <= p.Capacity; n++ {
		logp += math.Log(p.Lambda / (p.Mu * float64(min(n, p.Workers))))
		if logp > bestLog {
			best, bestLog = n, logp
		}
	}
	return best
}

func (c chain) stationaryAt(an, am int) ([][]float64, error) {
	L, P := c.M+1, c.phases()
	s := blockSystem{A: make([]*mat.Dense, L), B: make([]*mat.Dense, L), C: make([]*mat.Dense, L), b: make([]*mat.VecDense, L)}
	// Q^T: the equation of state j (level l) sums x_i Q_ij over the
	// states i that move to j: A[l] holds the up moves from level l-1,
	// C[l] the down moves from level l+1, B[l] the local moves.
	for l := 0; l < L; l++ {
		s.B[l] = mat.NewDense(P, P, nil)
		s.b[l] = mat.NewVecDense(P, nil)
		if l > 0 {
			s.A[l] = mat.NewDense(P, P, nil)
		}
		if l < L-1 {
			s.C[l] = mat.NewDense(P, P, nil)
		}
	}
	for l := 0; l < L; l++ {
		for n := 0; n < P; n++ {
			o := c.out(n, l)
			s.B[l].Set(n, n, o.diag)
			if n+1 < P {
				s.B[l].Set(n+1, n, o.local[0])
			}
			if n > 0 {
				s.B[l].Set(n-1, n, o.local[1])
			}
			if o.up > 0 {
				s.A[l+1].Set(n, n, o.up)
			}
			if o.down > 0 {
				s.C[l-1].Set(o.downN, n, s.C[l-1].At(o.downN, n)+o.down)
			}
		}
	}
	for n := 0; n < P; n++ {
		s.B[am].Set(an, n, 0)
		if s.A[am] != nil {
			s.A[am].Set(an, n, 0)
		}
		if s.C[am] != nil {
			s.C[am].Set(an, n, 0)
		}
	}
	s.B[am].Set(an, an, 1)
	s.b[am].SetVec(an, 1)
	x, err := s.solve()
	if err != nil {
		return nil, err
	}
	pi := make([][]float64, L)
	var sum float64
	for l := range x {
		pi[l] = make([]float64, P)
		for n := 0; n < P; n++ {
			v := x[l].AtVec(n)
			if v < 0 { // round-off below the solver's accuracy
				v = 0
			}
			pi[l][n] = v
			sum += v
		}
	}
	if !(sum > 0) || math.IsInf(sum, 0) {
		return nil, fmt.Errorf("stationary solve failed (sum %v)", sum)
	}
	for l := range pi {
		for n := range pi[l] {
			pi[l][n] /= sum
		}
	}
	return pi, nil
}

// residual is the largest |(pi Q)_j|, the balance error of the solution.
func (c chain) residual(pi [][]float64) float64 {
	L, P := c.M+1, c.phases()
	flow := make([][]float64, L)
	for l := range flow {
		flow[l] = make([]float64, P)
	}
	for l := 0; l < L; l++ {
		for n := 0; n < P; n++ {
			o := c.out(n, l)
			x := pi[l][n]
			flow[l][n] += x * o.diag
			if n+1 < P {
				flow[l][n+1] += x * o.local[0]
			}
			if n > 0 {
				flow[l][n-1] += x * o.local[1]
			}
			if o.up > 0 {
				flow[l+1][n] += x * o.up
			}
			if o.down > 0 {
				flow[l-1][o.downN] += x * o.down
			}
		}
	}
	var r float64
	for l := range flow {
		for _, v := range flow[l] {
			r = math.Max(r, math.Abs(v))
		}
	}
	return r
}

// hitting returns the expected time to reach the states where target is
// true, from every state ([m][n]): h = 0 on the target, Q h = -1 off it.
func (c chain) hitting(target func(n, m int) bool) ([][]float64, error) {
	L, P := c.M+1, c.phases()
	s := blockSystem{A: make([]*mat.Dense, L), B: make([]*mat.Dense, L), C: make([]*mat.Dense, L), b: make([]*mat.VecDense, L)}
	for l := 0; l < L; l++ {
		s.B[l] = mat.NewDense(P, P, nil)
		s.b[l] = mat.NewVecDense(P, nil)
		if l > 0 {
			s.A[l] = mat.NewDense(P, P, nil)
		}
		if l < L-1 {
			s.C[l] = mat.NewDense(P, P, nil)
		}
		for n := 0; n < P; n++ {
			if target(n, l) {
				s.B[l].Set(n, n, 1)
				continue
			}
			o := c.out(n, l)
			s.b[l].SetVec(n, -1)
			s.B[l].Set(n, n, o.diag)
			if n+1 < P {
				s.B[l].Set(n, n+1, o.local[0])
			}
			if n > 0 {
				s.B[l].Set(n, n-1, o.local[1])
			}
			if o.up > 0 {
				s.C[l].Set(n, n, o.up)
			}
			if o.down > 0 {
				s.A[l].Set(n, o.downN, s.A[l].At(n, o.downN)+o.down)
			}
		}
	}
	x, err := s.solve()
	if err != nil {
		return nil, err
	}
	h := make([][]float64, L)
	for l := range x {
		h[l] = make([]float64, P)
		for n := range h[l] {
			h[l][n] = x[l].AtVec(n)
		}
	}
	return h, nil
}

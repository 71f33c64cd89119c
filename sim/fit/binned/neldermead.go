package binned

import (
	"math"
	"sort"
)

// minimize minimises f from x0 by Nelder–Mead (standard coefficients:
// reflection 1, expansion 2, contraction 1/2, shrink 1/2) with an initial
// simplex of x0 plus step along each axis, for at most maxEval
// evaluations or until the simplex's values agree to 1e-10 (relative) or
// its points to 1e-6 (the restart in Fit guards against a simplex whose
// values agree by chance). It is deterministic. NaN values count as +Inf. A
// 0-dimensional x0 is evaluated once.
func minimize(f func([]float64) float64, x0 []float64, step float64, maxEval int) (x []float64, fx float64) {
	const ftol, xtol = 1e-10, 1e-6
	eval := func(p []float64) float64 {
		v := f(p)
		if math.IsNaN(v) {
			return math.Inf(1)
		}
		return v
	}
	n := len(x0)
	if n == 0 {
		return nil, eval(x0)
	}
	pts := make([][]float64, n+1)
	vals := make([]float64, n+1)
	for i := range pts {
		pts[i] = append([]float64(nil), x0...)
		if i > 0 {
			pts[i][i-1] += step
		}
		vals[i] = eval(pts[i])
	}
	evals := n + 1
	order := make([]int, n+1)
	centroid := make([]float64, n)
	at := func(t float64, worst []float64) []float64 {
		p := make([]float64, n)
		for j := range p {
			p[j] = centroid[j] + t*(worst[j]-centroid[j])
		}
		return p
	}
	for evals < maxEval {
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool { return vals[order[a]] < vals[order[b]] })
		best, worst, second := order[0], order[n], order[n-1]
		// Converged?
		spread := 0.0
		for _, p := range pts {
			for j := range p {
				spread = math.Max(spread, math.Abs(p[j]-pts[best][j]))
			}
		}
		if math.Abs(vals[worst]-vals[best]) <= ftol*(1+math.Abs(vals[best])) || spread <= xtol {
			break
		}
		clear(centroid)
		for _, i := range order[:n] {
			for j := range centroid {
				centroid[j] += pts[i][j] / float64(n)
			}
		}
		xr := at(-1, pts[worst])
		fr := eval(xr)
		evals++
		switch {
		case fr < vals[best]:
			xe := at(-2, pts[worst])
			fe := eval(xe)
			evals++
			if fe < fr {
				pts[worst], vals[worst] = xe, fe
			} else {
				pts[worst], vals[worst] = xr, fr
			}
		case fr < vals[second]:
			pts[worst], vals[worst] = xr, fr
		default:
			xc := at(-0.5, pts[worst]) // outside contraction
			if fr >= vals[worst] {
				xc = at(0.5, pts[worst]) // inside contraction
			}
			fc := eval(xc)
			evals++
			if fc < math.Min(fr, vals[worst]) {
				pts[worst], vals[worst] = xc, fc
				continue
			}
			for _, i := range order[1:] {
				for j := range pts[i] {
					pts[i][j] = pts[best][j] + 0.5*(pts[i][j]-pts[best][j])
				}
				vals[i] = eval(pts[i])
				evals++
			}
		}
	}
	b := 0
	for i := range vals {
		if vals[i] < vals[b] {
			b = i
		}
	}
	return pts[b], vals[b]
}

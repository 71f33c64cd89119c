package binned

import "math"

// minProb floors a bin's model probability so a bin the model deems
// impossible costs a large but finite log-likelihood.
const minProb = 1e-300

// problem is one histogram with the components' atoms, ready to score
// models against.
type problem struct {
	bounds, counts []float64
	total          float64
	atoms          []atom    // nil: no components
	tail           []float64 // tail[i]: the weight of atoms[i:]
}

// newProblem copies the histogram (of total count total) and keeps the
// components' atoms (sorted by position; nil for none).
func newProblem(bounds, counts []float64, total float64, atoms []atom) *problem {
	pr := &problem{
		bounds: append([]float64(nil), bounds...),
		counts: append([]float64(nil), counts...),
		total:  total,
		atoms:  atoms,
	}
	if atoms != nil {
		pr.tail = make([]float64, len(atoms))
		for i, w := len(atoms)-1, 0.0; i >= 0; i-- {
			w += atoms[i].w
			pr.tail[i] = w
		}
	}
	return pr
}

// cdf returns P(T <= x) and P(T > x) for T = X + components.
func (pr *problem) cdf(m model, x float64) (f, s float64) {
	if pr.atoms == nil {
		return m.cdf(x)
	}
	if math.IsInf(x, 1) {
		return 1, 0
	}
	// Atoms are sorted by position; those at or beyond x leave T > x
	// surely (X > 0), so the sum stops at the first and adds their weight.
	for i, a := range pr.atoms {
		if a.c >= x {
			return f, s + pr.tail[i]
		}
		fa, sa := m.cdf(x - a.c)
		f += a.w * fa
		s += a.w * sa
	}
	return f, s
}

// probs fills p with the model probability of each bin, conditional on
// T <= the last bound when that bound is finite.
func (pr *problem) probs(m model, p []float64) {
	fPrev, sPrev := 0.0, 1.0
	for i, b := range pr.bounds {
		f, s := pr.cdf(m, b)
		var q float64
		if fPrev < 0.5 {
			q = f - fPrev
		} else {
			q = sPrev - s
		}
		if !(q >= 0) { // rounding, or NaN from a broken model
			q = 0
		}
		p[i] = math.Min(q, 1)
		fPrev, sPrev = f, s
	}
	// A histogram whose last bound is finite did not count what lay beyond
	// it: the bins' probabilities are conditional on T <= the last bound.
	if last := pr.bounds[len(pr.bounds)-1]; !math.IsInf(last, 1) {
		sum := 0.0
		for _, q := range p {
			sum += q
		}
		if sum > 0 {
			for i := range p {
				p[i] /= sum
			}
		}
	}
}

// logLik is the multinomial log-likelihood sum counts_i log P_i (without
// the multinomial coefficient, which does not depend on the model); bins
// without observations contribute nothing.
func (pr *problem) logLik(m model, p []float64) float64 {
	pr.probs(m, p)
	ll := 0.0
	for i, c := range pr.counts {
		if c > 0 {
			ll += c * math.Log(math.Max(p[i], minProb))
		}
	}
	return ll
}

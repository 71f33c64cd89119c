package binned

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// minExpected is the smallest expected count a chi-square cell may have.
const minExpected = 5

// goodness fills r's ChiSq, DoF, PValue and MaxGap from the observed
// counts and the model's bin probabilities p.
//
// Pearson's chi-square needs expected counts of at least about 5 per cell,
// so adjacent bins are merged left to right until each group expects at
// least 5; a last group short of 5 joins the one before it. DoF is the
// number of groups - 1 - K; PValue is NaN when DoF < 1 (no test left).
// MaxGap is the largest |observed CDF - fitted CDF| at the bounds.
func goodness(r *Result, counts, p []float64, total float64) {
	var groupsO, groupsE []float64
	var o, e float64
	for i, c := range counts {
		o += c
		e += p[i] * total
		if e >= minExpected {
			groupsO, groupsE = append(groupsO, o), append(groupsE, e)
			o, e = 0, 0
		}
	}
	if o > 0 || e > 0 {
		if n := len(groupsO); n > 0 {
			groupsO[n-1] += o
			groupsE[n-1] += e
		} else {
			groupsO, groupsE = append(groupsO, o), append(groupsE, e)
		}
	}
	chi := 0.0
	for i := range groupsO {
		d := groupsO[i] - groupsE[i]
		if groupsE[i] > 0 {
			chi += d * d / groupsE[i]
		} else if d != 0 {
			chi = math.Inf(1)
		}
	}
	r.ChiSq = chi
	r.DoF = len(groupsO) - 1 - r.K
	r.PValue = math.NaN()
	if r.DoF >= 1 {
		r.PValue = distuv.ChiSquared{K: float64(r.DoF)}.Survival(chi)
	}
	var co, cm float64
	r.MaxGap = 0
	for i, c := range counts {
		co += c / total
		cm += p[i]
		r.MaxGap = math.Max(r.MaxGap, math.Abs(co-cm))
	}
}

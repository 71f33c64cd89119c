package promql

import (
	"math"
)

// aggregate evaluates sum, max, min, avg or count over vec, grouping by
// the labels of a.Grouping (by) or by all others (without, which also
// drops __name__), as Prometheus 2.42 does: samples in the order of the
// vector, sum by plain addition, avg by incremental mean.
func (ev *evaluator) aggregate(a *Aggregate, vec []sample) []sample {
	type group struct {
		lbls       Labels
		value      float64
		mean       float64
		groupCount float64
	}
	var order []*group
	groups := make(map[string]*group) // lookup only; order keeps the order
	ev.charge(len(vec))
	for _, s := range vec {
		var lbls Labels
		if a.Without {
			lbls = s.lbls.without(append([]string{MetricName}, a.Grouping...)...)
		} else {
			lbls = s.lbls.only(a.Grouping...)
		}
		k := lbls.key()
		g, ok := groups[k]
		if !ok {
			g = &group{lbls: lbls, value: s.v, mean: s.v, groupCount: 1}
			groups[k] = g
			order = append(order, g)
			continue
		}
		switch a.Op {
		case "sum":
			g.value += s.v
		case "avg":
			g.groupCount++
			if math.IsInf(g.mean, 0) {
				if math.IsInf(s.v, 0) && (g.mean > 0) == (s.v > 0) {
					break
				}
				if !math.IsInf(s.v, 0) && !math.IsNaN(s.v) {
					break
				}
			}
			g.mean += s.v/g.groupCount - g.mean/g.groupCount
		case "max":
			if g.value < s.v || math.IsNaN(g.value) {
				g.value = s.v
			}
		case "min":
			if g.value > s.v || math.IsNaN(g.value) {
				g.value = s.v
			}
		case "count":
			g.groupCount++
		}
	}
	out := make([]sample, 0, len(order))
	for _, g := range order {
		v := g.value
		switch a.Op {
		case "avg":
			v = g.mean
		case "count":
			v = g.groupCount
		}
		out = append(out, sample{g.lbls, v})
	}
	return out
}

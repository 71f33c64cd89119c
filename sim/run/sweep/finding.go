package sweep

import (
	"fmt"
	"strings"

	"github.com/ressim/ressim/sim/run"
)

// Finding is the one line the sweep's text output leads with: per
// variant, in how many cells the first fault leaves the runs locked in
// (in at least half their replications) and the locked-in cell lowest
// on the x axis, or
// which variants recover everywhere; without a fault to judge, which
// variants collapse along the axis (see curveFinding); "" when there is
// neither.
func Finding(r *Result, stats []CellStat) string {
	var locked, recover []string
	faulted := false
	for _, v := range r.Variants {
		n, k, first := 0, 0, CellStat{X: -1}
		for _, s := range stats {
			if s.Variant != v || !s.faulted || s.N == 0 {
				continue
			}
			faulted = true
			n++
			if 2*s.locked >= s.N {
				if first.X < 0 || s.X < first.X || s.X == first.X && s.Y < first.Y {
					first = s
				}
				k++
			}
		}
		switch {
		case n == 0:
		case k == 0:
			recover = append(recover, v)
		case k == n:
			locked = append(locked, v+" stays locked in in every cell")
		default:
			locked = append(locked, fmt.Sprintf("%s stays locked in in %d of %d cells (from %s)", v, k, n, r.cellName(first)))
		}
	}
	if !faulted {
		if r.Sweep.Y != nil {
			return ""
		}
		return curveFinding(run.MetricOf(r.Sweep.Metric), r.lineFigure(stats).Panels[0].Lines)
	}
	parts := locked
	switch len(recover) {
	case 0:
	case len(r.Variants):
		parts = append(parts, "every variant recovers in every cell")
	case 1:
		parts = append(parts, recover[0]+" recovers in every cell")
	default:
		parts = append(parts, strings.Join(recover, ", ")+" recover in every cell")
	}
	return strings.Join(parts, "; ")
}

// cellName names a cell by its axis values: "rate 350, spike 1s".
func (r *Result) cellName(s CellStat) string {
	sw := r.Sweep
	name := fmt.Sprintf("%s %v", sw.X.Label, sw.X.Values[s.X])
	if sw.Y != nil {
		name += fmt.Sprintf(", %s %v", sw.Y.Label, sw.Y.Values[s.Y])
	}
	return name
}

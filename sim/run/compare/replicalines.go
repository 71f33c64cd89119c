package compare

import "math"

// Bounds of the per-replication goodput lines compare-timeline.png draws
// under each variant's mean: the first maxReplicaLines replications of
// each variant, each folded to at most maxLinePoints values (means of
// consecutive intervals), in float32. At most 50 x 600 x 4 B = 120 kB per
// variant, however many replications and intervals the comparison has.
const (
	maxReplicaLines = 50
	maxLinePoints   = 600
)

// replicaLine is one replication's goodput, folded: value k is the mean
// of intervals [k*per, (k+1)*per) (NaN intervals left out; NaN if all
// are).
type replicaLine struct {
	per    int
	values []float32
}

// foldLine folds a series into a replicaLine of at most maxLinePoints
// values.
func foldLine(v []float64) replicaLine {
	per := max(1, (len(v)+maxLinePoints-1)/maxLinePoints)
	l := replicaLine{per: per, values: make([]float32, 0, (len(v)+per-1)/per)}
	for i := 0; i < len(v); i += per {
		sum, n := 0.0, 0
		for _, x := range v[i:min(i+per, len(v))] {
			if !math.IsNaN(x) {
				sum, n = sum+x, n+1
			}
		}
		m := math.NaN()
		if n > 0 {
			m = sum / float64(n)
		}
		l.values = append(l.values, float32(m))
	}
	return l
}

// points returns the line against the interval ends x (seconds): each
// value at the mean end of the intervals it folds.
func (l replicaLine) points(x []float64) (xs, ys []float64) {
	for k, v := range l.values {
		lo, hi := k*l.per, min((k+1)*l.per, len(x))
		if lo >= hi {
			break
		}
		sum := 0.0
		for _, e := range x[lo:hi] {
			sum += e
		}
		xs = append(xs, sum/float64(hi-lo))
		ys = append(ys, float64(v))
	}
	return xs, ys
}

// keepReplicaLine keeps replication rep's goodput line of arm, if rep is
// among the first maxReplicaLines.
func (c *Comparison) keepReplicaLine(arm, rep int, goodput []float64) {
	if rep >= maxReplicaLines || goodput == nil {
		return
	}
	if c.replicaLines[arm] == nil {
		c.replicaLines[arm] = make([]replicaLine, min(c.Replications, maxReplicaLines))
	}
	if rep < len(c.replicaLines[arm]) {
		c.replicaLines[arm][rep] = foldLine(goodput)
	}
}

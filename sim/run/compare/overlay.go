package compare

import (
	"math"

	"github.com/ressim/ressim/sim/run"
)

// overlayMean is the interval-by-interval mean of an arm's overlay
// series over its replications. Runs finish in any order; their series
// are folded in replication order (later ones wait in pending), so that
// the floating-point sums, and the figure, do not depend on -j. pending
// holds only runs that finished before an earlier one.
type overlayMean struct {
	next    int
	pending map[int][run.NumOverlays][]float64
	sum     [run.NumOverlays][]float64
	n       [run.NumOverlays][]int
}

func (o *overlayMean) add(rep int, cols [run.NumOverlays][]float64) {
	if o.pending == nil {
		o.pending = map[int][run.NumOverlays][]float64{}
	}
	o.pending[rep] = cols
	for {
		c, ok := o.pending[o.next]
		if !ok {
			return
		}
		delete(o.pending, o.next)
		o.next++
		for k := range c {
			o.fold(k, c[k])
		}
	}
}

func (o *overlayMean) fold(k int, v []float64) {
	for len(o.sum[k]) < len(v) {
		o.sum[k] = append(o.sum[k], 0)
		o.n[k] = append(o.n[k], 0)
	}
	for i, x := range v {
		if !math.IsNaN(x) {
			o.sum[k][i] += x
			o.n[k][i]++
		}
	}
}

// mean returns series k's mean over the replications folded, over n
// intervals (NaN where no run had a value).
func (o *overlayMean) mean(k, n int) []float64 {
	y := make([]float64, n)
	for i := range y {
		y[i] = math.NaN()
		if i < len(o.n[k]) && o.n[k][i] > 0 {
			y[i] = o.sum[k][i] / float64(o.n[k][i])
		}
	}
	return y
}

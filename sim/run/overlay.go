package run

import (
	"math"

	"github.com/ressim/ressim/sim/topology"
)

// overlayColumns are the series compare-timeline.png overlays, taken from
// a run: the total goodput and the first client's answered p99.
func overlayColumns(res *topology.Result) [2][]float64 {
	var out [2][]float64
	first := ""
	if len(res.Clients) > 0 {
		first = res.Clients[0].Name
	}
	if col := res.Series.Find(topology.TotalEntity, "goodput"); col != nil {
		out[0] = col.Values()
	}
	if col := res.Series.Find(first, "latency_p99"); col != nil {
		out[1] = col.Values()
	}
	return out
}

// overlayMean is the interval-by-interval mean of an arm's overlay
// series over its replications. Runs finish in any order; their series
// are folded in replication order (later ones wait in pending), so that
// the floating-point sums, and the figure, do not depend on -j. pending
// holds only runs that finished before an earlier one.
type overlayMean struct {
	next    int
	pending map[int][2][]float64
	sum     [2][]float64
	n       [2][]int
}

func (o *overlayMean) add(rep int, cols [2][]float64) {
	if o.pending == nil {
		o.pending = map[int][2][]float64{}
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

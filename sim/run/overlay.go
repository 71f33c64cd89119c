package run

import (
	"math"

	"github.com/ressim/ressim/sim/topology"
)

// The series compare-timeline.png overlays, by index.
const (
	overlayGoodput  = iota // all clients' goodput
	overlayInFlight        // all clients' requests in flight
	overlayP99             // the first client's answered p99
	numOverlays
)

// overlayColumns are the series compare-timeline.png overlays, taken from
// a run.
func overlayColumns(res *topology.Result) [numOverlays][]float64 {
	var out [numOverlays][]float64
	first := ""
	if len(res.Clients) > 0 {
		first = res.Clients[0].Name
	}
	find := func(entity string, k topology.SeriesKey) []float64 {
		if col := res.Series.Find(entity, k.Name); col != nil {
			return col.Values()
		}
		return nil
	}
	out[overlayGoodput] = find(topology.TotalEntity, topology.TotalGoodput)
	out[overlayInFlight] = find(topology.TotalEntity, topology.TotalInFlight)
	out[overlayP99] = find(first, topology.ClientLatencyP99)
	return out
}

// overlayMean is the interval-by-interval mean of an arm's overlay
// series over its replications. Runs finish in any order; their series
// are folded in replication order (later ones wait in pending), so that
// the floating-point sums, and the figure, do not depend on -j. pending
// holds only runs that finished before an earlier one.
type overlayMean struct {
	next    int
	pending map[int][numOverlays][]float64
	sum     [numOverlays][]float64
	n       [numOverlays][]int
}

func (o *overlayMean) add(rep int, cols [numOverlays][]float64) {
	if o.pending == nil {
		o.pending = map[int][numOverlays][]float64{}
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

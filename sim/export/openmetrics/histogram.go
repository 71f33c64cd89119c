package openmetrics

import (
	"strconv"
	"time"

	"github.com/ressim/ressim/sim/topology"
)

// histogramSeries returns a histogram family's series: for every entity
// of res carrying the mapped histogram, in res.Histograms' order, one
// _bucket series per bound (label le, the bound in seconds), the +Inf
// bucket, _count and _sum (seconds). Each is cumulative: 0 at the first
// interval's start, then the running total at every interval's end, as a
// client library's histogram scraped once per interval reports it.
func histogramSeries(f Family, hm HistogramMapping, res *topology.Result) []Series {
	ts := res.Series
	var out []Series
	for _, h := range res.Histograms {
		if h.Key != hm.Key {
			continue
		}
		base := [][2]string{{entityLabel(h.Key.Owner), h.Entity}}
		bs := h.Buckets
		bounds := bs.Bounds()
		group := make([]Series, len(bounds)+3)
		for j := range len(bounds) + 1 {
			le := "+Inf"
			if j < len(bounds) {
				le = strconv.FormatFloat(float64(bounds[j])/1e9, 'g', -1, 64)
			}
			group[j] = Series{Family: f, Name: f.Name + "_bucket", Labels: append(append([][2]string(nil), base...), [2]string{"le", le})}
		}
		group[len(bounds)+1] = Series{Family: f, Name: f.Name + "_count", Labels: base}
		group[len(bounds)+2] = Series{Family: f, Name: f.Name + "_sum", Labels: base}
		t0 := time.Duration(ts.Start(0))
		totals := make([]float64, len(group))
		for j := range group {
			group[j].Points = append(group[j].Points, Point{t0, 0})
		}
		for i := range min(bs.Len(), ts.Len()) {
			at := time.Duration(ts.End(i))
			for j, c := range bs.Counts(i) {
				totals[j] += float64(c)
			}
			totals[len(bounds)+1] = totals[len(bounds)]
			totals[len(bounds)+2] += bs.Sum(i) / 1e9
			for j := range group {
				group[j].Points = append(group[j].Points, Point{at, totals[j]})
			}
		}
		out = append(out, group...)
	}
	return out
}

// entityLabel is the label naming an entity of the owner's kind.
func entityLabel(o topology.SeriesOwner) string {
	if o == topology.OwnerClient {
		return lClient
	}
	return lService
}

// histogramGroup is the number of series one histogram metric has: a
// bucket per bound, +Inf, _count and _sum.
func histogramGroup() int { return len(topology.LatencyBucketBounds()) + 3 }

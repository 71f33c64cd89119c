package promql

import (
	"math"
	"sort"
	"strconv"
)

// bucket is one classic histogram bucket: le and cumulative count.
type bucket struct {
	upper, count float64
}

// histogramQuantile is histogram_quantile(φ, buckets) on classic
// histograms (le labels), as Prometheus 2.42 computes it: buckets grouped
// by their labels less le, linear interpolation within the bucket that
// holds the rank.
func histogramQuantile(ev *evaluator, c *Call) []sample {
	q := ev.eval(c.Args[0]).s
	in := ev.eval(c.Args[1]).vec
	type group struct {
		lbls    Labels
		buckets []bucket
	}
	var order []string
	groups := make(map[string]*group) // lookup only; order keeps the order
	for _, s := range in {
		le, err := strconv.ParseFloat(s.lbls.Get("le"), 64)
		if err != nil {
			continue // no le label, or not a number: skipped as in Prometheus
		}
		k := s.lbls.without("le").key()
		g, ok := groups[k]
		if !ok {
			g = &group{lbls: s.lbls.without("le", MetricName, "quantile")}
			groups[k] = g
			order = append(order, k)
		}
		g.buckets = append(g.buckets, bucket{le, s.v})
	}
	out := make([]sample, 0, len(order))
	for _, k := range order {
		g := groups[k]
		out = append(out, sample{g.lbls, bucketQuantile(q, g.buckets)})
	}
	return out
}

func bucketQuantile(q float64, buckets []bucket) float64 {
	if math.IsNaN(q) {
		return math.NaN()
	}
	if q < 0 {
		return math.Inf(-1)
	}
	if q > 1 {
		return math.Inf(1)
	}
	sort.SliceStable(buckets, func(i, j int) bool { return buckets[i].upper < buckets[j].upper })
	if !math.IsInf(buckets[len(buckets)-1].upper, 1) {
		return math.NaN()
	}
	buckets = coalesceBuckets(buckets)
	ensureMonotonic(buckets)
	if len(buckets) < 2 {
		return math.NaN()
	}
	observations := buckets[len(buckets)-1].count
	if observations == 0 {
		return math.NaN()
	}
	rank := q * observations
	b := sort.Search(len(buckets)-1, func(i int) bool { return buckets[i].count >= rank })
	if b == len(buckets)-1 {
		return buckets[len(buckets)-2].upper
	}
	if b == 0 && buckets[0].upper <= 0 {
		return buckets[0].upper
	}
	var (
		bucketStart float64
		bucketEnd   = buckets[b].upper
		count       = buckets[b].count
	)
	if b > 0 {
		bucketStart = buckets[b-1].upper
		count -= buckets[b-1].count
		rank -= buckets[b-1].count
	}
	return bucketStart + (bucketEnd-bucketStart)*(rank/count)
}

// coalesceBuckets merges buckets with the same upper bound (sorted).
func coalesceBuckets(buckets []bucket) []bucket {
	last := buckets[0]
	i := 0
	for _, b := range buckets[1:] {
		if b.upper == last.upper {
			last.count += b.count
		} else {
			buckets[i] = last
			last = b
			i++
		}
	}
	buckets[i] = last
	return buckets[:i+1]
}

// ensureMonotonic raises a bucket's count to the largest before it.
func ensureMonotonic(buckets []bucket) {
	m := math.Inf(-1)
	for i := range buckets {
		switch {
		case buckets[i].count > m:
			m = buckets[i].count
		case buckets[i].count < m:
			buckets[i].count = m
		}
	}
}

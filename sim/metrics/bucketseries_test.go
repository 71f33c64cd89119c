package metrics

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCumulativeCountsAgreeWithQuantile: for random values and bounds,
// the q-quantile is at most bounds[j] exactly when at least ceil(q*n)
// values are counted at or below bounds[j]: the counts round values as
// the quantiles do.
func TestCumulativeCountsAgreeWithQuantile(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var h Histogram
	for range 5000 {
		h.Record(int64(rng.ExpFloat64() * 2e7))
	}
	bounds := []int64{1e6, 2.5e6, 5e6, 1e7, 2.5e7, 5e7, 1e8}
	got := h.CumulativeCounts(bounds, nil)
	if !slices.IsSorted(got) {
		t.Fatalf("counts not cumulative: %v", got)
	}
	for _, q := range []float64{0.01, 0.5, 0.9, 0.99, 0.999} {
		v := h.Quantile(q)
		k := rank(q, h.Count())
		for j, b := range bounds {
			if (v <= b) != (got[j] >= k) {
				t.Errorf("q=%v: quantile %d vs bound %d, but %d counted at or below (rank %d)", q, v, b, got[j], k)
			}
		}
	}
}

// TestBucketSeries: step table of intervals appended from a histogram.
func TestBucketSeries(t *testing.T) {
	b, err := NewBucketSeries([]int64{10, 100})
	if err != nil {
		t.Fatal(err)
	}
	var h Histogram
	steps := []struct {
		values []int64
		want   []uint64
		sum    float64
	}{
		{nil, []uint64{0, 0, 0}, 0},
		{[]int64{5, 10, 11, 100, 1000}, []uint64{2, 4, 5}, 1126},
		{[]int64{200}, []uint64{0, 0, 1}, 200},
	}
	for i, s := range steps {
		h.Reset()
		for _, v := range s.values {
			h.Record(v)
		}
		b.Append(&h)
		if got := b.Counts(i); !slices.Equal(got, s.want) || b.Sum(i) != s.sum {
			t.Errorf("interval %d: counts %v sum %v, want %v %v", i, got, b.Sum(i), s.want, s.sum)
		}
	}
	if b.Len() != len(steps) {
		t.Errorf("Len %d", b.Len())
	}
	for _, bad := range [][]int64{nil, {0}, {5, 5}, {10, 2}} {
		if _, err := NewBucketSeries(bad); err == nil {
			t.Errorf("bounds %v accepted", bad)
		}
	}
}

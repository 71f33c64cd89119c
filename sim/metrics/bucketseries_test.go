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

// cumulativeCountsNaive is CumulativeCounts by its definition: every
// non-empty bucket's reported value compared with every bound.
func cumulativeCountsNaive(h *Histogram, bounds []int64) []uint64 {
	dst := make([]uint64, len(bounds))
	if h.count == 0 {
		return dst
	}
	p := h.prec()
	for i := h.lo(); i <= h.hi(); i++ {
		v := min(max(bucketRep(i, p), h.minv()), h.max)
		for j, b := range bounds {
			if v <= b {
				dst[j] += h.counts[i]
			}
		}
	}
	return dst
}

// TestCumulativeCountsMatchDefinition: the one-pass CumulativeCounts
// agrees with the definition on random histograms of every shape (one
// value, one bucket, values below and above every bound, bounds inside
// the end buckets) at several precisions.
func TestCumulativeCountsMatchDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 3000 {
		p := 1 + rng.IntN(10)
		h, err := NewHistogram(p)
		if err != nil {
			t.Fatal(err)
		}
		scale := 1 << rng.IntN(30)
		for range rng.IntN(6) * rng.IntN(40) {
			h.Record(int64(rng.ExpFloat64() * float64(scale)))
		}
		bounds := make([]int64, 1+rng.IntN(12))
		for j := range bounds {
			bounds[j] = int64(rng.ExpFloat64()*float64(2*scale)) - int64(rng.IntN(3))
		}
		if trial%7 == 0 && h.Count() > 0 { // bounds at the edges of the end buckets
			bounds = append(bounds, h.Min()-1, h.Min(), h.Max()-1, h.Max(),
				bucketRep(h.lo(), h.prec()), bucketRep(h.hi(), h.prec()))
		}
		slices.Sort(bounds)
		got := h.CumulativeCounts(bounds, nil)
		if want := cumulativeCountsNaive(h, bounds); !slices.Equal(got, want) {
			t.Fatalf("trial %d (p=%d, %d values, min %d max %d): bounds %v\n got %v\nwant %v",
				trial, p, h.Count(), h.Min(), h.Max(), bounds, got, want)
		}
	}
}

// BenchmarkCumulativeCounts: one interval of a latency histogram (10,000
// exponential latencies around 20 ms, 7 bits) read at the 14 latency
// bounds the model exports, once per interval and series.
func BenchmarkCumulativeCounts(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	var h Histogram
	for range 10000 {
		h.Record(int64(rng.ExpFloat64() * 2e7))
	}
	bounds := []int64{1e6, 2.5e6, 5e6, 1e7, 2.5e7, 5e7, 1e8, 2.5e8, 5e8, 1e9, 2.5e9, 5e9, 1e10, 3e10}
	dst := make([]uint64, len(bounds))
	b.ReportAllocs()
	for b.Loop() {
		dst = h.CumulativeCounts(bounds, dst)
	}
}

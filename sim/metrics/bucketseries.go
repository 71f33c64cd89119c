package metrics

import (
	"fmt"
	"slices"
)

// CumulativeCounts writes into dst[j] the number of values recorded whose
// reported value is at most bounds[j], for ascending bounds, and returns
// dst (grown to len(bounds) if needed). A value's reported value is its
// bucket's representative clamped to [Min(), Max()], the value Quantile
// reports for it, so a quantile q lies at or below bounds[j] exactly when
// dst[j] >= ceil(q * Count()): the counts and the quantiles round values
// the same way, within a relative 2^-(PrecisionBits()+1) of the value
// recorded. Cost: one pass over the buckets between Min and the largest
// bound, with no per-bucket arithmetic, plus len(bounds).
func (h *Histogram) CumulativeCounts(bounds []int64, dst []uint64) []uint64 {
	dst = slices.Grow(dst[:0], len(bounds))[:len(bounds)]
	clear(dst)
	if h.count == 0 {
		return dst
	}
	// Clamping moves only the representatives of the first and last
	// non-empty buckets (lo and hi hold Min and Max, and every bucket
	// strictly between lies inside (Min, Max), its midpoint too), so the
	// two ends are counted apart and the inner buckets by index: bucket i
	// reports at most b exactly when i <= lastAtMost(b), because the
	// representatives grow with the index.
	p := h.prec()
	lo, hi := h.lo(), h.hi()
	repLo := min(max(bucketRep(lo, p), h.minv()), h.max)
	repHi := min(max(bucketRep(hi, p), h.minv()), h.max)
	i := lo + 1 // next inner bucket to add
	var inner uint64
	for j, b := range bounds {
		last := min(lastAtMost(b, p), hi-1)
		for ; i <= last; i++ {
			inner += h.counts[i]
		}
		var c uint64
		if repLo <= b {
			c = h.counts[lo] + inner
			if hi > lo && repHi <= b {
				c += h.counts[hi]
			}
		}
		dst[j] = c
	}
	return dst
}

// lastAtMost returns the largest bucket index at p precision bits whose
// representative is at most b (-1 if none: b < 0).
func lastAtMost(b int64, p uint) int {
	if b < 0 {
		return -1
	}
	i := bucketOf(uint64(b), p)
	if bucketRep(i, p) > b {
		i-- // bucket i starts at or below b, so bucket i-1's midpoint is below b
	}
	return i
}

// BucketSeries is a histogram's time series at fixed bucket bounds, the
// data of a Prometheus histogram: for every interval, how many values
// recorded in it were at most each bound (le), their count and their sum.
// It holds len(bounds)+2 numbers (8 bytes each) per interval, whatever
// the values, so its memory is bounded by the number of intervals.
//
// A BucketSeries is not safe for concurrent use.
type BucketSeries struct {
	bounds []int64
	counts []uint64  // per interval: len(bounds) cumulative counts, then the total
	sums   []float64 // per interval: the sum of the values
}

// NewBucketSeries returns an empty series with the given bounds, which
// must be positive and strictly ascending (at least one).
func NewBucketSeries(bounds []int64) (*BucketSeries, error) {
	if len(bounds) == 0 {
		return nil, fmt.Errorf("metrics: NewBucketSeries: no bounds")
	}
	for i, b := range bounds {
		if b <= 0 || (i > 0 && b <= bounds[i-1]) {
			return nil, fmt.Errorf("metrics: NewBucketSeries: bound %d (%d) is not positive and above the previous", i, b)
		}
	}
	return &BucketSeries{bounds: slices.Clone(bounds)}, nil
}

// Bounds returns the bucket bounds; the caller must not modify them.
func (b *BucketSeries) Bounds() []int64 { return b.bounds }

// Append appends one interval holding the values recorded in h (see
// CumulativeCounts for how a value near a bound is counted).
func (b *BucketSeries) Append(h *Histogram) {
	n := len(b.counts)
	b.counts = append(b.counts, make([]uint64, len(b.bounds)+1)...)
	h.CumulativeCounts(b.bounds, b.counts[n:n+len(b.bounds)])
	b.counts[n+len(b.bounds)] = h.Count()
	b.sums = append(b.sums, h.Sum())
}

// Reserve makes room for n more intervals, so that appending them grows
// no slice; n <= 0 does nothing.
func (b *BucketSeries) Reserve(n int) {
	if n <= 0 {
		return
	}
	b.counts = slices.Grow(b.counts, n*(len(b.bounds)+1))
	b.sums = slices.Grow(b.sums, n)
}

// Len returns the number of intervals.
func (b *BucketSeries) Len() int { return len(b.sums) }

// Counts returns interval i's cumulative counts: at most each bound, then
// the total (the +Inf bucket). The caller must not modify them.
func (b *BucketSeries) Counts(i int) []uint64 {
	w := len(b.bounds) + 1
	return b.counts[i*w : (i+1)*w]
}

// Sum returns the sum of interval i's values.
func (b *BucketSeries) Sum(i int) float64 { return b.sums[i] }

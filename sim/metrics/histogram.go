package metrics

import (
	"errors"
	"fmt"
	"math"
	"math/bits"

	"github.com/ressim/ressim/sim/internal/wide"
)

// DefaultPrecisionBits is the precision used by NewHistogram(0) and by the
// zero Histogram: quantiles within a relative error below 2^-8 (0.39 %),
// values below 256 exact.
const DefaultPrecisionBits = 7

// MaxPrecisionBits is the largest precision NewHistogram accepts. At 16
// bits a histogram covering values up to 10 s in nanoseconds holds about
// 1.2 million buckets (9.5 MiB).
const MaxPrecisionBits = 16

// ErrPrecisionMismatch is returned (wrapped) by Merge when the two
// histograms have different precisions.
var ErrPrecisionMismatch = errors.New("metrics: histogram precisions differ")

// Histogram is a log-linear histogram of non-negative int64 values
// (ressim records latencies in nanoseconds) with bounded relative error;
// see the package documentation for the layout, and the comment at the top
// of buckets.go for the proof of the bound.
//
// Negative values are clamped to 0 when recorded: a latency cannot be
// negative, and a negative value is a caller's bug that should neither
// panic in the hot path nor corrupt the order statistics.
//
// The zero Histogram is empty and ready to use, with DefaultPrecisionBits.
// A Histogram is not safe for concurrent use.
type Histogram struct {
	counts []uint64 // counts[i] is the count of bucket i; grown lazily
	count  uint64   // total number of values recorded
	sumHi  uint64   // high word of the exact 128-bit sum of the values
	sumLo  uint64   // low word
	mins   uint64   // 2^63 minus the smallest value recorded; 0 when empty (see below)
	max    int64    // largest value recorded; 0 when empty
	px     uint8    // precision bits xor DefaultPrecisionBits (see prec)
}

// How the extremes are kept: recording updates each with one comparison,
// and the zero Histogram needs no set-up. max starts at 0, not above any
// value (values are clamped to >= 0). mins, 2^63 - min, starts at 0,
// smaller than that of any value, and a value v in [0, 2^63) is below
// the minimum exactly when v + mins, which cannot wrap, is below 2^63:
// Record tests the sign of one sum, an instruction fewer than comparing
// with a decoded minimum. Two histograms' minimum is that of the larger
// mins. The smallest and largest non-empty buckets, where a scan of counts
// starts and ends, are the buckets of the two extremes (bucketOf
// increases with the value).

// note updates the extremes for v, about to be counted. Once a run has
// seen its extremes the branches are always predicted, which is faster
// than conditional moves: they would chain every record to the previous
// one through the fields.
func (h *Histogram) note(v int64) {
	if s := 1<<63 - uint64(v); s > h.mins {
		h.mins = s
	}
	if v > h.max {
		h.max = v
	}
}

// minv returns the smallest value recorded; valid when count > 0.
func (h *Histogram) minv() int64 { return int64(1<<63 - h.mins) }

// lo returns the index of the smallest non-empty bucket; valid when
// count > 0.
func (h *Histogram) lo() int { return bucketOf(uint64(h.minv()), h.prec()) }

// hi returns the index of the largest non-empty bucket; valid when
// count > 0.
func (h *Histogram) hi() int { return bucketOf(uint64(h.max), h.prec()) }

// NewHistogram returns an empty histogram whose quantiles have a relative
// error below 2^-(precisionBits+1), and whose values below
// 2^(precisionBits+1) are exact. precisionBits 0 selects
// DefaultPrecisionBits (7); otherwise it must be in [1, MaxPrecisionBits].
func NewHistogram(precisionBits int) (*Histogram, error) {
	if precisionBits == 0 {
		precisionBits = DefaultPrecisionBits
	}
	if precisionBits < 1 || precisionBits > MaxPrecisionBits {
		return nil, fmt.Errorf("metrics: NewHistogram: precisionBits %d outside [1, %d]",
			precisionBits, MaxPrecisionBits)
	}
	return &Histogram{px: uint8(precisionBits) ^ DefaultPrecisionBits}, nil
}

// PrecisionBits returns the histogram's precision in bits.
func (h *Histogram) PrecisionBits() int { return int(h.prec()) }

// addCounts adds src to dst, which are as long. It is a function of its
// own so that the loop's code does not depend on Merge's: the alignment
// padding the compiler puts before a loop's header landed inside Merge's
// loop, an instruction more per bucket, depending on the size of the code
// before it.
//
// The loop adds four buckets per turn, through an array pointer (one
// bounds check per turn, which the loop's test proves away): its test,
// increment and branch were as many instructions as the additions.
//
//go:noinline
func addCounts(dst, src []uint64) {
	src = src[:len(dst)]
	i := 0
	for ; i < len(dst)-3; i += 4 {
		d := (*[4]uint64)(dst[i:])
		d[0] += src[i]
		d[1] += src[i+1]
		d[2] += src[i+2]
		d[3] += src[i+3]
	}
	for ; i < len(dst); i++ {
		dst[i] += src[i]
	}
}

// prec returns the precision bits. They are kept xor DefaultPrecisionBits,
// so that the zero Histogram has the default without a test on every
// Record: one instruction where "0 means the default" took a comparison
// and a branch.
func (h *Histogram) prec() uint { return uint(h.px ^ DefaultPrecisionBits) }

// Record adds one value. Negative values count as 0. It is RecordN(v, 1)
// without the 128-bit product: the sum grows by v itself.
func (h *Histogram) Record(v int64) {
	// At the default precision (px 0), the one every model uses, bucketOf
	// shifts by constants: 7 instructions fewer than by h.prec(). A
	// negative v, as a uint64 at least 2^63, falls in a bucket beyond any
	// counts can hold, so recordSlow clamps it: no test for it here.
	var idx int
	if h.px == 0 {
		idx = bucketOf(uint64(v), DefaultPrecisionBits)
	} else {
		idx = bucketOf(uint64(v), h.prec())
	}
	counts := h.counts
	if uint(idx) >= uint(len(counts)) {
		h.recordSlow(v)
		return
	}
	counts[idx]++ // the test above is the bounds check
	h.sum(v)
}

// recordSlow is Record for a negative value or one beyond the buckets
// counts holds: it clamps the value and grows counts.
func (h *Histogram) recordSlow(v int64) {
	v = max(v, 0)
	idx := bucketOf(uint64(v), h.prec())
	if idx >= len(h.counts) {
		h.grow(idx)
	}
	h.counts[idx]++
	h.sum(v)
}

// sum adds v, counted already, to the sum, the extremes and the count.
func (h *Histogram) sum(v int64) {
	var c uint64
	if wide.Wasm { // no add-with-carry there (package wide)
		h.sumLo, c = wide.AddCarry(h.sumLo, uint64(v))
	} else {
		h.sumLo, c = bits.Add64(h.sumLo, uint64(v), 0)
	}
	h.sumHi += c
	// note(v), with the minimum compared in its stored form (see above).
	if int64(uint64(v)+h.mins) >= 0 {
		h.mins = 1<<63 - uint64(v)
	}
	if v > h.max {
		h.max = v
	}
	h.count++
}

// RecordN adds n occurrences of the value v, as n calls of Record(v) would.
// Negative values count as 0; n = 0 does nothing. The total count wraps
// beyond 2^64-1 values, which no run reaches.
func (h *Histogram) RecordN(v int64, n uint64) {
	if n == 0 {
		return
	}
	if v < 0 {
		v = 0
	}
	idx := bucketOf(uint64(v), h.prec())
	if idx >= len(h.counts) {
		h.grow(idx)
	}
	h.counts[idx] += n
	mh, ml := bits.Mul64(uint64(v), n)
	var c uint64
	h.sumLo, c = bits.Add64(h.sumLo, ml, 0)
	h.sumHi += mh + c
	h.note(v)
	h.count += n
}

// grow extends counts to hold index idx and one more octave of buckets
// (1<<p), never beyond the number of buckets that can exist. Each growth
// adds at least an octave, so a histogram grows at most once per octave
// of its largest value (64 times), and holds about what its values span:
// doubling instead allocated twice that, most of it never used, which a
// short process pays for in fresh pages.
func (h *Histogram) grow(idx int) {
	n := min(idx+1+1<<h.prec(), numBuckets(h.prec()))
	c := make([]uint64, n)
	copy(c, h.counts)
	h.counts = c
}

// Count returns the number of values recorded.
func (h *Histogram) Count() uint64 { return h.count }

// Sum returns the sum of the values recorded (after clamping negatives to
// 0), from the exact 128-bit integer sum, correctly rounded to float64.
func (h *Histogram) Sum() float64 { return u128ToFloat(h.sumHi, h.sumLo) }

// Mean returns Sum() / Count(), or 0 for an empty histogram.
func (h *Histogram) Mean() float64 {
	if h.count == 0 {
		return 0
	}
	return h.Sum() / float64(h.count)
}

// Min returns the smallest value recorded, exactly, or 0 if empty.
func (h *Histogram) Min() int64 {
	if h.count == 0 {
		return 0
	}
	return h.minv()
}

// Max returns the largest value recorded, exactly, or 0 if empty.
func (h *Histogram) Max() int64 {
	if h.count == 0 {
		return 0
	}
	return h.max
}

// Quantile returns the q-quantile by the nearest-rank definition: the
// value of rank k = ceil(q * Count()) (computed in float64, at least 1, and
// forgiving binary rounding of a decimal q; see rank) in
// the sorted list of values recorded, reported as the midpoint of its
// bucket and clamped to [Min(), Max()]. The result is within a relative
// error below 2^-(PrecisionBits()+1) of that exact order statistic, and
// exact below 2^(PrecisionBits()+1). q is clamped to [0, 1] (NaN counts as
// 0); Quantile(0) is Min() and Quantile(1) is Max(). An empty histogram
// returns 0. Cost: linear in the number of buckets between Min and Max.
func (h *Histogram) Quantile(q float64) int64 {
	if h.count == 0 {
		return 0
	}
	k := rank(q, h.count)
	if k <= 1 {
		return h.minv()
	}
	if k >= h.count {
		return h.max
	}
	// Bucket i-1 is the first where the running count reaches k (it does,
	// since the counts sum to h.count > k).
	i, _ := scanTo(h.counts[:h.hi()+1], h.lo(), 0, k)
	return min(max(bucketRep(i-1, h.prec()), h.minv()), h.max)
}

// Quantiles sets out[i] to Quantile(qs[i]) for each i. With qs in
// increasing order it makes one pass over the buckets, where calling
// Quantile for each would make one per quantile; any order gives the same
// results, a decrease costing a new pass. out must be at least as long as
// qs.
func (h *Histogram) Quantiles(qs []float64, out []int64) {
	out = out[:len(qs)]
	if h.count == 0 {
		clear(out)
		return
	}
	lo, p := h.lo(), h.prec()
	// The scan runs to the largest value's bucket, the last of counts; a
	// local slice and an unsigned test spare the loop the reloads of
	// h.counts and the bounds check (i >= lo >= 0).
	counts := h.counts[:h.hi()+1]
	i, cum, last := lo, uint64(0), uint64(0)
	for j, q := range qs {
		k := rank(q, h.count)
		switch {
		case k <= 1:
			out[j] = h.minv()
			continue
		case k >= h.count:
			out[j] = h.max
			continue
		case k < last:
			i, cum = lo, 0 // qs decreased: scan again from the start
		}
		last = k
		i, cum = scanTo(counts, i, cum, k)
		// Bucket i-1 is the first where the running count reaches k: it
		// reached the previous (smaller) rank there, or was just added.
		out[j] = min(max(bucketRep(i-1, p), h.minv()), h.max)
	}
}

// scanTo adds counts[i], counts[i+1], ... to cum until it reaches k or
// the counts end, and returns the next index and the sum. Like addCounts
// it is a function of its own so that its loop's alignment does not
// depend on the code before it: in Quantiles a change elsewhere put a
// padding instruction inside the loop (3 M more instructions in mm10).
// It skips four buckets at a time while their sum leaves cum below k
// (half the instructions per bucket), then finds the bucket one by one.
//
//go:noinline
func scanTo(counts []uint64, i int, cum, k uint64) (int, uint64) {
	for ; i >= 0 && i < len(counts)-3; i += 4 {
		q := (*[4]uint64)(counts[i:])
		s := q[0] + q[1] + q[2] + q[3]
		if cum+s >= k {
			break
		}
		cum += s
	}
	for cum < k && uint(i) < uint(len(counts)) {
		cum += counts[i]
		i++
	}
	return i, cum
}

// rank returns the nearest rank ceil(q*n) of the q-quantile among n
// values, clamped to [1, n]. A product q*n that exceeds an integer r by at
// most a relative 1e-9 counts as r: binary floating point stores a decimal
// q such as 0.07 slightly high (0.07*100 = 7.000000000000001 in float64),
// and a person asking for the 7th percentile of 100 values expects rank 7,
// not 8.
func rank(q float64, n uint64) uint64 {
	if !(q > 0) { // also NaN
		return 1
	}
	if q >= 1 {
		return n
	}
	x := q * float64(n)
	k := math.Ceil(x)
	if r := math.Round(x); r < k && x-r <= 1e-9*r {
		k = r
	}
	return min(max(uint64(k), 1), n)
}

// Merge adds every value recorded in o to h, exactly: afterwards h's
// buckets, Count, Sum, Min and Max, and hence its quantiles, equal those of
// one histogram fed the values of both. o is not modified (unless o == h,
// which doubles h). It returns an error wrapping ErrPrecisionMismatch, and
// changes nothing, if the precisions differ.
func (h *Histogram) Merge(o *Histogram) error {
	if h.prec() != o.prec() {
		return fmt.Errorf("metrics: Merge %d-bit histogram into %d-bit: %w",
			o.prec(), h.prec(), ErrPrecisionMismatch)
	}
	if o.count == 0 {
		return nil
	}
	lo, hi := o.lo(), o.hi()
	if hi >= len(h.counts) {
		h.grow(hi)
	}
	addCounts(h.counts[lo:hi+1], o.counts[lo:hi+1])
	var c uint64
	h.sumLo, c = bits.Add64(h.sumLo, o.sumLo, 0)
	h.sumHi += o.sumHi + c
	h.mins = max(h.mins, o.mins)
	h.max = max(h.max, o.max)
	h.count += o.count
	return nil
}

// Reset empties the histogram, keeping its precision and its bucket array.
// It clears only the range of buckets in use, so calling it once per
// time-series interval is cheap.
func (h *Histogram) Reset() {
	if h.count > 0 {
		clear(h.counts[h.lo() : h.hi()+1])
	}
	h.count, h.sumHi, h.sumLo = 0, 0, 0
	h.mins, h.max = 0, 0
}

// u128ToFloat returns hi*2^64 + lo correctly rounded to float64.
func u128ToFloat(hi, lo uint64) float64 {
	if hi == 0 {
		return float64(lo)
	}
	n := uint(bits.Len64(hi))
	top := hi<<(64-n) | lo>>n // the 64 leading bits
	if lo&(1<<n-1) != 0 {
		top |= 1 // sticky bit: well below float64's 53 bits, it only breaks ties
	}
	return math.Ldexp(float64(top), int(n))
}

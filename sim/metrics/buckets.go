package metrics

import "math/bits"

// Bucket layout. With p precision bits, a non-negative value v is mapped to
// bucket index
//
//	s   = max(0, bits.Len64(v) - (p+1))   // shift: log2 of the bucket width
//	idx = s<<p + v>>s
//
// For v < 2^(p+1), s = 0 and idx = v: one bucket per value, exact. For
// larger v, v>>s is the top p+1 bits of v, in [2^p, 2^(p+1)), so idx runs
// over [(s+1)<<p, (s+2)<<p): consecutive shifts tile the index space with
// no gap and no overlap, and indices grow with v. The bucket of index idx
// holds [m<<s, m<<s + 2^s - 1] with s = max(0, idx>>p - 1) and
// m = idx - s<<p.
//
// Error bound. Let x be a value in a bucket with s >= 1, low = m<<s with
// m >= 2^p, so x >= low >= 2^(p+s). The bucket's representative is
// r = low + (2^s-1)/2 (integer division) = low + 2^(s-1) - 1, so
// |r - x| <= max(r - low, high - r) = 2^(s-1), and
//
//	|r - x| / x <= 2^(s-1) / 2^(p+s) = 2^-(p+1).
//
// Equality would need x = low and r - low = 2^(s-1), but r - low =
// 2^(s-1) - 1, and x = high gives x > 2^(p+s); so the bound is strict:
// every reported quantile is within a relative error < 2^-(p+1) < 2^-p of
// the exact order statistic, and exact for values below 2^(p+1). Clamping
// the representative to [Min, Max] only moves it towards x, since x lies in
// [Min, Max] too.
//
// The largest int64, 2^63-1, has s = 62-p and idx < (64-p)<<p, so for
// p = 7 at most 7296 buckets ever exist, allocated lazily up to the largest
// index recorded (about 3500 buckets, 28 KiB, for values up to 10 s in
// nanoseconds).

// bucketOf returns the bucket index of the non-negative value v at p
// precision bits.
func bucketOf(v uint64, p uint) int {
	// s = max(0, bits.Len64(v) - (p+1)), the bits of v above its top
	// p+1, without the clamp: with its low p+1 bits set, v is at least
	// 2^(p+1)-1, and being non-zero it spares bits.Len64 its test for 0
	// (at a constant p, 4 instructions fewer than the clamp and that test).
	s := bits.Len64(v|(1<<((p+1)&63)-1)) - int(p+1)
	// s <= 63 and p <= MaxPrecisionBits: the masks change nothing but
	// spare the compiler its handling of shift counts of 64 and more.
	return s<<(p&63) + int(v>>(uint(s)&63))
}

// bucketBounds returns the smallest and largest value of bucket idx at p
// precision bits.
func bucketBounds(idx int, p uint) (low, high int64) {
	s := idx>>p - 1
	if s < 0 {
		s = 0
	}
	m := uint64(idx - s<<p)
	lo := m << uint(s)
	return int64(lo), int64(lo + (uint64(1)<<uint(s) - 1))
}

// bucketRep returns the value reported for bucket idx: its midpoint,
// rounded down.
func bucketRep(idx int, p uint) int64 {
	low, high := bucketBounds(idx, p)
	return low + (high-low)/2
}

// numBuckets returns the number of buckets needed to cover every
// non-negative int64 at p precision bits.
func numBuckets(p uint) int {
	return bucketOf(1<<63-1, p) + 1
}

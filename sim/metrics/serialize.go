package metrics

import (
	"errors"
	"fmt"
	"math/big"
	"math/bits"
)

// Bucket is one non-empty bucket of a Histogram: Count values in the
// closed range [Low, High].
type Bucket struct {
	Low   int64  `json:"low"`
	High  int64  `json:"high"`
	Count uint64 `json:"count"`
}

// Buckets returns the histogram's non-empty buckets in increasing order of
// value, or nil if it is empty. It allocates the returned slice.
func (h *Histogram) Buckets() []Bucket {
	if h.count == 0 {
		return nil
	}
	p := h.prec()
	var out []Bucket
	for i, hi := h.lo(), h.hi(); i <= hi; i++ {
		if c := h.counts[i]; c != 0 {
			low, high := bucketBounds(i, p)
			out = append(out, Bucket{Low: low, High: high, Count: c})
		}
	}
	return out
}

// Snapshot is a histogram's complete state in a compact, deterministic
// form for JSON export: FromSnapshot rebuilds an identical histogram, so
// histograms from separate runs can be merged later, exactly. Sum is the
// exact integer sum of the values in decimal (it may exceed 64 bits).
type Snapshot struct {
	PrecisionBits int      `json:"precision_bits"`
	Count         uint64   `json:"count"`
	Sum           string   `json:"sum"`
	Min           int64    `json:"min"`
	Max           int64    `json:"max"`
	Buckets       []Bucket `json:"buckets"`
}

// Snapshot returns the histogram's state. It allocates.
func (h *Histogram) Snapshot() Snapshot {
	sum := new(big.Int).SetUint64(h.sumHi)
	sum.Lsh(sum, 64).Or(sum, new(big.Int).SetUint64(h.sumLo))
	return Snapshot{
		PrecisionBits: h.PrecisionBits(),
		Count:         h.count,
		Sum:           sum.String(),
		Min:           h.Min(),
		Max:           h.Max(),
		Buckets:       h.Buckets(),
	}
}

// FromSnapshot rebuilds the histogram that produced s. It returns an error
// if s is inconsistent: a bad precision, a bucket that is not one of the
// layout's buckets, buckets out of order or empty, counts that do not add
// up to Count, Min or Max outside the first or last bucket, or a Sum that is
// not an integer in [Count*Min, Count*Max].
func FromSnapshot(s Snapshot) (*Histogram, error) {
	if s.PrecisionBits == 0 {
		return nil, errors.New("metrics: FromSnapshot: precision_bits missing")
	}
	h, err := NewHistogram(s.PrecisionBits)
	if err != nil {
		return nil, fmt.Errorf("metrics: FromSnapshot: %w", err)
	}
	p := h.prec()
	var total uint64
	prev := -1
	for i, b := range s.Buckets {
		if b.Low < 0 {
			return nil, fmt.Errorf("metrics: FromSnapshot: bucket %d: negative low %d", i, b.Low)
		}
		idx := bucketOf(uint64(b.Low), p)
		if low, high := bucketBounds(idx, p); low != b.Low || high != b.High {
			return nil, fmt.Errorf("metrics: FromSnapshot: bucket %d: [%d, %d] is not a %d-bit bucket",
				i, b.Low, b.High, p)
		}
		if idx <= prev {
			return nil, fmt.Errorf("metrics: FromSnapshot: bucket %d: out of order", i)
		}
		if b.Count == 0 {
			return nil, fmt.Errorf("metrics: FromSnapshot: bucket %d: zero count", i)
		}
		var c uint64
		if total, c = bits.Add64(total, b.Count, 0); c != 0 {
			return nil, fmt.Errorf("metrics: FromSnapshot: bucket counts overflow")
		}
		prev = idx
	}
	if total != s.Count {
		return nil, fmt.Errorf("metrics: FromSnapshot: buckets hold %d values, count is %d", total, s.Count)
	}
	if s.Count == 0 {
		if s.Min != 0 || s.Max != 0 || (s.Sum != "" && s.Sum != "0") {
			return nil, errors.New("metrics: FromSnapshot: empty histogram with non-zero min, max or sum")
		}
		return h, nil
	}
	first, last := s.Buckets[0], s.Buckets[len(s.Buckets)-1]
	if s.Min < first.Low || s.Min > first.High || s.Max < last.Low || s.Max > last.High || s.Min > s.Max {
		return nil, fmt.Errorf("metrics: FromSnapshot: min %d or max %d outside the first or last bucket",
			s.Min, s.Max)
	}
	sum, ok := new(big.Int).SetString(s.Sum, 10)
	if !ok {
		return nil, fmt.Errorf("metrics: FromSnapshot: sum %q is not a decimal integer", s.Sum)
	}
	cnt := new(big.Int).SetUint64(s.Count)
	lo := new(big.Int).Mul(cnt, big.NewInt(s.Min))
	hi := new(big.Int).Mul(cnt, big.NewInt(s.Max))
	if sum.Cmp(lo) < 0 || sum.Cmp(hi) > 0 {
		return nil, fmt.Errorf("metrics: FromSnapshot: sum %s outside [count*min, count*max]", s.Sum)
	}
	h.counts = make([]uint64, prev+1)
	for _, b := range s.Buckets {
		h.counts[bucketOf(uint64(b.Low), p)] = b.Count
	}
	h.count = s.Count
	h.mins, h.max = 1<<63-uint64(s.Min), s.Max
	word := new(big.Int).Lsh(big.NewInt(1), 64)
	q, r := new(big.Int).QuoRem(sum, word, new(big.Int))
	h.sumHi, h.sumLo = q.Uint64(), r.Uint64()
	return h, nil
}

package metrics

import (
	"math"
	"testing"
)

// TestRecordNegativeIsZero checks that Record, which leaves a negative
// value to recordSlow (its bucket lies beyond any counts), counts it as 0
// at the default precision and another, before and after the histogram
// has grown, exactly as recording 0 would.
func TestRecordNegativeIsZero(t *testing.T) {
	for _, bits := range []int{0, 3, MaxPrecisionBits} {
		for _, first := range []int64{-1, 0, 5, 1e9} {
			a, err := NewHistogram(bits)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := NewHistogram(bits)
			for _, v := range []int64{first, -7, math.MinInt64, 12345, -1, math.MaxInt64, 3} {
				a.Record(v)
				b.Record(max(v, 0))
			}
			if a.Count() != b.Count() || a.Sum() != b.Sum() || a.Min() != b.Min() || a.Max() != b.Max() ||
				a.sumHi != b.sumHi || a.sumLo != b.sumLo || len(a.counts) != len(b.counts) {
				t.Fatalf("bits %d, first %d: %+v, want %+v", bits, first, a, b)
			}
			for i := range a.counts {
				if a.counts[i] != b.counts[i] {
					t.Fatalf("bits %d, first %d: bucket %d = %d, want %d", bits, first, i, a.counts[i], b.counts[i])
				}
			}
		}
	}
}

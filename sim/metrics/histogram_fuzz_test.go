package metrics

import (
	"encoding/binary"
	"math"
	"slices"
	"testing"
)

// fuzzMaxBits is the highest precision FuzzHistogram draws.
const fuzzMaxBits = 12

// checkQuantilesOnePass requires Quantiles to agree with Quantile for qs
// and for qs sorted.
func checkQuantilesOnePass(t *testing.T, h *Histogram, qs []float64) {
	t.Helper()
	for _, qs := range [][]float64{qs, slices.Sorted(slices.Values(qs))} {
		got := make([]int64, len(qs))
		h.Quantiles(qs, got)
		for i, q := range qs {
			if want := h.Quantile(q); got[i] != want {
				t.Fatalf("Quantiles(%v)[%d] = %d, Quantile(%v) = %d", qs, i, got[i], q, want)
			}
		}
	}
}

// FuzzHistogram feeds arbitrary value sequences, split between two
// histograms, and checks the invariants: Count, Min, Max and Sum exact;
// every quantile within the bound of the exact order statistic; the merge
// of the two parts equal to one histogram fed everything; Reset empties.
func FuzzHistogram(f *testing.F) {
	f.Add(uint8(7), uint8(3), []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	f.Add(uint8(1), uint8(0), []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f})
	f.Add(uint8(16), uint8(1), []byte{0, 0, 0, 0, 0, 0, 0, 0x80, 9, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, bitsIn, split uint8, data []byte) {
		// Precision is capped at fuzzMaxBits: at 16 bits one value near
		// 2^63 needs 64 x 2^16 buckets (32 MiB) per histogram, so an input
		// took seconds and the fuzzing engine killed the worker as hung
		// (testdata/fuzz/FuzzHistogram/9f7d6614f8c95087). Precisions up to
		// MaxPrecisionBits are covered by TestQuantileBound's loop.
		p := int(bitsIn)%fuzzMaxBits + 1
		all, _ := NewHistogram(p)
		a, _ := NewHistogram(p)
		b, _ := NewHistogram(p)
		var vals []int64
		for i := 0; i+8 <= len(data); i += 8 {
			raw := binary.LittleEndian.Uint64(data[i:])
			// Mix magnitudes: shift by the low byte so small values are common.
			v := int64(raw) >> (raw & 63)
			vals = append(vals, v)
			all.Record(v)
			if (i/8)%(int(split)%4+1) == 0 {
				a.Record(v)
			} else {
				b.Record(v)
			}
		}
		if all.Count() != uint64(len(vals)) {
			t.Fatalf("Count %d, want %d", all.Count(), len(vals))
		}
		if len(vals) == 0 {
			if all.Quantile(0.5) != 0 || all.Min() != 0 || all.Max() != 0 || all.Mean() != 0 {
				t.Fatal("empty histogram reports non-zero")
			}
			return
		}
		clamped := make([]int64, len(vals))
		var sum float64
		for i, v := range vals {
			clamped[i] = max(v, 0)
			sum += float64(clamped[i])
		}
		if all.Min() != slices.Min(clamped) || all.Max() != slices.Max(clamped) {
			t.Fatalf("Min/Max %d/%d, want %d/%d", all.Min(), all.Max(), slices.Min(clamped), slices.Max(clamped))
		}
		if math.Abs(all.Sum()-sum) > 1e-12*sum {
			t.Fatalf("Sum %v, want %v", all.Sum(), sum)
		}
		checkQuantiles(t, all, vals, testQuantiles)
		checkQuantilesOnePass(t, all, slices.Concat(testQuantiles, []float64{0.5, 0.25, 1, 0}))
		if err := a.Merge(b); err != nil {
			t.Fatal(err)
		}
		if !equalHist(a, all) {
			t.Fatal("merge of the parts differs from the whole")
		}
		all.Reset()
		if all.Count() != 0 || all.Quantile(1) != 0 || len(all.Buckets()) != 0 {
			t.Fatal("Reset did not empty the histogram")
		}
	})
}

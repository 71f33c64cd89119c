package metrics

import (
	"math/rand/v2"
	"testing"
)

// latencies returns n exponential latencies in nanoseconds (mean 20 ms),
// from a fixed seed.
func latencies(n int) []int64 {
	r := rand.New(rand.NewPCG(7, 7))
	v := make([]int64, n)
	for i := range v {
		v[i] = int64(r.ExpFloat64() * 20e6)
	}
	return v
}

func BenchmarkHistogramRecord(b *testing.B) {
	vals := latencies(1024)
	var h Histogram
	h.Record(1e10)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		h.Record(vals[i&1023])
	}
}

func BenchmarkHistogramRecordN(b *testing.B) {
	vals := latencies(1024)
	var h Histogram
	h.Record(1e10)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		h.RecordN(vals[i&1023], 3)
	}
}

func BenchmarkHistogramQuantile(b *testing.B) {
	var h Histogram
	for _, v := range latencies(100000) {
		h.Record(v)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		h.Quantile(0.99)
	}
}

func BenchmarkHistogramReset(b *testing.B) {
	vals := latencies(64)
	var h Histogram
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, v := range vals {
			h.Record(v)
		}
		h.Reset()
	}
}

func BenchmarkHistogramMerge(b *testing.B) {
	var h, o Histogram
	for _, v := range latencies(100000) {
		o.Record(v)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := h.Merge(&o); err != nil {
			b.Fatal(err)
		}
	}
}

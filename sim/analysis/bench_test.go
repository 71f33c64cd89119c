package analysis

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// sample returns n seeded normal values around 1000.
func sample(n int, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 0))
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = 1000 + 30*r.NormFloat64()
	}
	return xs
}

var (
	sinkSummary  Summary
	sinkInterval Interval
	sinkFloat    float64
)

func BenchmarkSummarize(b *testing.B) {
	for _, n := range []int{10, 30, 1000} {
		xs := sample(n, 1)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkSummary = Summarize(xs)
			}
		})
	}
}

func BenchmarkPaired(b *testing.B) {
	base, variant := sample(30, 1), sample(30, 2)
	b.ReportAllocs()
	for b.Loop() {
		sinkSummary, _ = Paired(base, variant)
	}
}

func BenchmarkWilson(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sinkInterval = Wilson(3, 20)
	}
}

func BenchmarkTCritical95(b *testing.B) {
	for _, df := range []int{9, 29, 2000} {
		b.Run(fmt.Sprintf("df=%d", df), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkFloat = TCritical95(df)
			}
		})
	}
}

// TestNoAllocs holds the package to its documented promise: no
// allocation outside Paired's error path.
func TestNoAllocs(t *testing.T) {
	xs, ys := sample(30, 1), sample(30, 2)
	calls := map[string]func(){
		"Summarize":   func() { sinkSummary = Summarize(xs) },
		"Paired":      func() { sinkSummary, _ = Paired(xs, ys) },
		"Wilson":      func() { sinkInterval = Wilson(7, 30) },
		"TCritical95": func() { sinkFloat = TCritical95(29) },
	}
	for name, call := range calls {
		if n := testing.AllocsPerRun(100, call); n != 0 {
			t.Errorf("%s: %v allocs per call, want 0", name, n)
		}
	}
}

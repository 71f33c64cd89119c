package binned

import (
	"math"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/ressim/ressim/sim/dist"
)

// expBuckets are exponential buckets 0.5ms, 1ms, ... x2 up to 16.384s,
// then +Inf (seconds).
func expBuckets() []float64 {
	var b []float64
	for x := 0.0005; x < 20; x *= 2 {
		b = append(b, x)
	}
	return append(b, math.Inf(1))
}

// nativeBuckets are buckets growing by 2^(1/4) from 0.5ms to 16s, then
// +Inf (seconds): Prometheus native histograms' schema 2.
func nativeBuckets() []float64 {
	var b []float64
	for i := 0; i <= 60; i++ {
		b = append(b, 0.0005*math.Pow(2, float64(i)/4))
	}
	return append(b, math.Inf(1))
}

// promBuckets are Prometheus's default buckets plus +Inf (seconds).
func promBuckets() []float64 {
	return []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, math.Inf(1)}
}

// bin counts samples (seconds) into bounds, Prometheus-style: the first
// bound >= x.
func bin(bounds, xs []float64) Bins {
	c := make([]float64, len(bounds))
	for _, x := range xs {
		c[sort.SearchFloat64s(bounds, x)]++
	}
	return Bins{Bounds: bounds, Counts: c}
}

// draw returns n samples in seconds of p from a seeded PCG.
func draw(p dist.Params, n int, seed uint64) []float64 {
	d := dist.Must(p)
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = d.Sample(rng).Seconds()
	}
	return xs
}

func ms(x float64) time.Duration { return time.Duration(x * float64(time.Millisecond)) }

// relErr is |got/want - 1|.
func relErr(got, want float64) float64 { return math.Abs(got/want - 1) }

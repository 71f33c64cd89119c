package report

import (
	"math"
	"math/rand/v2"
)

// sampleFigure is a made-up metastable failure: a slow dependency from
// t=600 s to t=900 s, retries that keep the overload going, recovery only
// after load shedding at t=1500 s. n points per line over one hour.
func sampleFigure(n, wpx, hpx int) Figure {
	r := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, n)
	for i := range x {
		x[i] = 3600 * float64(i) / float64(n-1)
	}
	series := func(f func(t, u float64) float64) []float64 {
		y := make([]float64, n)
		for i, t := range x {
			y[i] = f(t, r.Float64())
		}
		return y
	}
	down := func(t float64) bool { return t >= 600 && t < 1500 }
	offered := series(func(t, u float64) float64 { return 1000 + 40*(u-0.5) })
	through := series(func(t, u float64) float64 {
		if down(t) {
			return 2400 + 300*(u-0.5)
		}
		return 1000 + 40*(u-0.5)
	})
	good := series(func(t, u float64) float64 {
		switch {
		case down(t):
			return 40 + 30*u
		case t > 2400 && t < 2460:
			return math.NaN() // metrics gap
		}
		return 990 + 30*(u-0.5)
	})
	good[n/3] = 1900 // a spike that downsampling must keep
	p50 := series(func(t, u float64) float64 {
		if down(t) {
			return 4000 + 1000*u
		}
		return 20 + 5*u
	})
	p99 := series(func(t, u float64) float64 {
		if down(t) {
			return 5000 + 200*u
		}
		return 60 + 40*u
	})
	slo := series(func(float64, float64) float64 { return 400 })
	inflight := series(func(t, u float64) float64 {
		if down(t) {
			return 200
		}
		return 20 + 4*u
	})
	queue := series(func(t, u float64) float64 {
		if down(t) {
			return 5000 + 500*u
		}
		return 2 * u
	})
	return Figure{
		Title:    "checkout: recommendations slows to 5 s (retries 3x3x3, no breaker)",
		Subtitle: "seed 1 · 1000 req/s open loop · 200 workers",
		Panels: []Panel{
			{Title: "Throughput and goodput", YLabel: "req/s", YMin: new(0.0), Lines: []Line{
				{Label: "offered", X: x, Y: offered, Dashed: true},
				{Label: "throughput", X: x, Y: through},
				{Label: "goodput", X: x, Y: good},
			}},
			{Title: "Latency", YLabel: "latency (ms)", LogY: true, Lines: []Line{
				{Label: "p50", X: x, Y: p50},
				{Label: "p99", X: x, Y: p99},
				{Label: "SLO p99 400 ms", X: x, Y: slo, Dashed: true},
			}, States: []StateBand{
				{0, 630, "closed"}, {630, 645, "open"}, {645, 646, "half-open"}, {646, 676, "open"},
				{676, 677, "half-open"}, {677, 1500, "open"}, {1500, 1501, "half-open"}, {1501, 3600, "closed"},
			}, StatesLabel: "breaker", Markers: []Marker{
				{At: 646, Label: "probe failed", Tone: Bad}, {At: 677, Label: "probe failed", Tone: Bad},
				{At: 1501, Label: "probe passed", Tone: Good},
			}},
			{Title: "Saturation", YLabel: "requests", YMin: new(0.0), Lines: []Line{
				{Label: "in flight", X: x, Y: inflight},
				{Label: "queued", X: x, Y: queue},
			}},
		},
		Spans: []Span{
			{From: 600, To: 900, Label: "recommendations latency 20 ms → 5 s"},
			{From: 1500, To: 1560, Label: "load shedding"},
		},
		Marks: []Mark{{X: 2400, Label: "metrics agent restarted"}},
		Width: wpx, Height: hpx,
	}
}

func nan() float64 { return math.NaN() }

package report_test

import (
	"bytes"
	"fmt"
	"image/png"
	"math"

	"github.com/ressim/ressim/sim/report"
)

// A two-panel figure of a fault window, rendered to PNG in memory. In a
// program, report.WriteFile("plots/run.png", f) writes it atomically.
func Example() {
	var t, good, p99 []float64
	for s := 0.0; s <= 600; s++ {
		t = append(t, s)
		fault := s >= 200 && s < 300
		good = append(good, 1000-900*b2f(fault))
		p99 = append(p99, 60+4940*b2f(fault))
	}
	f := report.Figure{
		Title: "checkout: recommendations slow (baseline)",
		Panels: []report.Panel{
			{Title: "Goodput", YLabel: "req/s", YMin: new(0.0),
				Lines: []report.Line{{Label: "goodput", X: t, Y: good}}},
			{Title: "Latency", YLabel: "p99 (ms)", LogY: true,
				Lines: []report.Line{{Label: "p99", X: t, Y: p99}}},
		},
		Spans: []report.Span{{From: 200, To: 300, Label: "recommendations 5 s"}},
		Width: 800, Height: 500,
	}
	var buf bytes.Buffer
	if err := report.RenderPNG(&buf, f); err != nil {
		fmt.Println(err)
		return
	}
	cfg, _ := png.DecodeConfig(&buf)
	fmt.Printf("%d x %d PNG\n", cfg.Width, cfg.Height)

	// Spikes survive downsampling: 10 000 points to 2 per column.
	x, y := make([]float64, 10000), make([]float64, 10000)
	for i := range x {
		x[i] = float64(i)
	}
	y[4321] = math.Pi
	dx, dy := report.Downsample(nil, nil, x, y, 0, 9999, 100)
	fmt.Println(len(dx) <= 2*100+2, dy[indexOf(dx, 4321)])
	// Output:
	// 800 x 500 PNG
	// true 3.141592653589793
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func indexOf(xs []float64, v float64) int {
	for i, x := range xs {
		if x == v {
			return i
		}
	}
	return -1
}

// Goodput of three retry policies over two faults, mean and 95 % interval.
func ExampleBarChart() {
	b := report.BarChart{
		Title:  "Goodput during the fault",
		YLabel: "goodput (req/s)",
		Groups: []string{"slow 5 s", "503 at 50 %"},
		Series: []report.BarSeries{
			{Label: "3 retries", Values: []float64{35, 210}, Lo: []float64{20, 180}, Hi: []float64{50, 240}},
			{Label: "retry budget", Values: []float64{170, 560}, Lo: []float64{140, 530}, Hi: []float64{200, 590}},
		},
		Width: 640, Height: 400,
	}
	var buf bytes.Buffer
	if err := b.RenderSVG(&buf); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(bytes.Contains(buf.Bytes(), []byte(">retry budget</text>")))
	// Output: true
}

// A phase diagram: does the system recover, over load x attempts?
func ExampleHeatmap() {
	h := report.Heatmap{
		Title:  "Recovery after a slowdown",
		XLabel: "offered load (fraction of capacity)", YLabel: "attempts per call",
		ZLabel: "time to recover (s)",
		X:      []float64{0.5, 0.7, 0.9},
		Y:      []float64{1, 3},
		Z: [][]float64{
			{8, 12, 23},
			{11, 21, math.NaN()}, // never recovered
		},
		Annotate: true,
	}
	fmt.Println(h.Validate())
	h.Z[1] = h.Z[1][:2]
	fmt.Println(h.Validate())
	// Output:
	// <nil>
	// invalid figure: heatmap Z row 1 has 2 values for 3 X values
}

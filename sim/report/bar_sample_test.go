package report

import "math"

func sampleBarChart(wpx, hpx int) BarChart {
	return BarChart{
		Title:    "Goodput during the fault, by retry policy",
		Subtitle: "mean of 20 replications, whiskers: 95 % confidence interval",
		YLabel:   "goodput (req/s)",
		XLabel:   "fault",
		Groups:   []string{"slow 5 s", "503 errors 50 %", "instance loss\n(2 of 4)"},
		Series: []BarSeries{
			{Label: "no retries", Values: []float64{180, 480, 610}, Lo: []float64{150, 455, 580}, Hi: []float64{210, 505, 640}},
			{Label: "3 retries", Values: []float64{35, 210, 390}, Lo: []float64{20, 180, 350}, Hi: []float64{50, 240, 430}},
			{Label: "3 retries + budget", Values: []float64{170, 560, 640}, Lo: []float64{140, 530, 610}, Hi: []float64{200, 590, 670}},
			{Label: "breaker + fallback", Values: []float64{920, 700, 650}, Lo: []float64{900, 660, 620}, Hi: []float64{940, 740, 680}},
		},
		Width: wpx, Height: hpx,
	}
}

// sampleHeatmap is a made-up phase diagram: time to recover after the
// trigger, over offered load and retry attempts; NaN never recovered.
func sampleHeatmap(wpx, hpx int) Heatmap {
	load := []float64{0.5, 0.6, 0.7, 0.8, 0.9, 1.0}
	tries := []float64{1, 2, 3, 4, 5}
	z := make([][]float64, len(tries))
	for j, k := range tries {
		z[j] = make([]float64, len(load))
		for i, l := range load {
			v := 5 / (1.05 - l*(0.8+0.12*k))
			if v < 0 || v > 300 {
				v = nan()
			}
			z[j][i] = v
		}
	}
	// Outlined: the locked-in cells (NaN).
	outline := make([][]bool, len(z))
	for j, row := range z {
		outline[j] = make([]bool, len(row))
		for i, v := range row {
			outline[j][i] = math.IsNaN(v)
		}
	}
	return Heatmap{
		Title:    "Recovery time after a 5-minute slowdown",
		Subtitle: "grey: stayed locked in (metastable), outlined",
		XLabel:   "offered load (fraction of capacity)",
		YLabel:   "attempts per call",
		ZLabel:   "time to recover (s)",
		X:        load, Y: tries, Z: z, Annotate: true,
		Outline: outline,
		Marks:   []Mark{{X: 0.72, Label: "knee 0.72"}, {X: 1.2, Label: "capacity 1.2"}},
		Width:   wpx, Height: hpx,
	}
}

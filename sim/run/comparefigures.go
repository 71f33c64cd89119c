package run

import (
	"bytes"
	"fmt"
	"io"
	"math"

	"github.com/ressim/ressim/sim/report"
)

// compareFigure is a figure of a comparison and its file name: write
// draws it to a file (PNG or SVG by the path's extension), svg to SVG
// bytes in memory (CompareMemory, SweepMemory).
type compareFigure struct {
	File  string
	write func(path string) error
	svg   func() ([]byte, error)
}

// growingFigure is a figure whose height doubles until its panels fit.
func growingFigure(file string, f report.Figure) compareFigure {
	return compareFigure{File: file,
		write: func(p string) error { return writeGrowing(p, f) },
		svg:   func() ([]byte, error) { return svgGrowing(f) }}
}

// chart is a fixed-size chart: report.BarChart or report.Heatmap.
type chart interface {
	WriteFile(path string) error
	RenderSVG(w io.Writer) error
}

// chartFigure is a fixed-size chart's figure.
func chartFigure(file string, c chart) compareFigure {
	return compareFigure{File: file, write: c.WriteFile, svg: func() ([]byte, error) {
		var b bytes.Buffer
		err := c.RenderSVG(&b)
		return b.Bytes(), err
	}}
}

// CompareFigures draws the comparison: goodput and user p99 latency over
// time with one line per variant (the mean over replications, interval by
// interval), fault windows shaded; and a bar chart per headline metric
// with 95 % interval whiskers.
func CompareFigures(c *Comparison, stats []MetricStats, locked []LockedIn) []compareFigure {
	timeline := compareTimeline(c)
	figs := []compareFigure{growingFigure("compare-timeline.png", timeline)}
	// Each variant's own overview, replication 0.
	for a, arm := range c.Arms {
		for _, nf := range figures(c.Runs[a][0], arm.Name) {
			if nf.File == "overview.png" {
				figs = append(figs, growingFigure("overview-"+arm.Name+".png", nf.Figure))
			}
		}
	}
	// One bar per variant, named under it on the axis, its value above it.
	for _, ms := range stats {
		if bc, ok := metricBars(c, ms); ok {
			figs = append(figs, chartFigure("bars-"+ms.Metric.Name+".png", bc))
		}
	}
	if len(locked) > 0 {
		bc := lockedBars(c, locked)
		figs = append(figs, chartFigure("bars-locked_in.png", bc))
	}
	return figs
}

// compareTimeline overlays the variants' mean series: goodput as small
// multiples, in flight and p99 latency.
func compareTimeline(c *Comparison) report.Figure {
	base := c.Runs[0][0]
	ts := base.Series
	x := make([]float64, ts.Len())
	for i := range x {
		x[i] = float64(ts.End(i)) / 1e9
	}
	// The mean over replications, interval by interval, folded as the
	// runs finished (Comparison.overlay).
	overlay := func(k int) []report.Line {
		var lines []report.Line
		for a, arm := range c.Arms {
			lines = append(lines, report.Line{Label: arm.Name, X: x, Y: c.overlay[a].mean(k, len(x))})
		}
		return lines
	}
	zero := 0.0
	sub := fmt.Sprintf("seed %d, mean of %d replication(s) per variant, per %v interval", c.Seed, c.Replications, ts.Interval())
	firstClient := ""
	if len(base.Clients) > 0 {
		firstClient = base.Clients[0].Name
	}
	// Goodput as small multiples, one panel per variant on one scale:
	// overlaid, variants at the same level (all at zero, or all back)
	// would hide each other.
	gLines := overlay(overlayGoodput)
	top := 0.0
	for _, l := range gLines {
		for _, v := range l.Y {
			if !math.IsNaN(v) {
				top = max(top, v)
			}
		}
	}
	var panels []report.Panel
	for _, l := range gLines {
		p := report.Panel{Title: "Goodput, " + l.Label + " (full answers within the deadline, all clients)",
			YLabel: "requests/s", YMin: &zero, Lines: []report.Line{l}}
		if top > 0 {
			yMax := top * 1.05
			p.YMax = &yMax
		}
		panels = append(panels, p)
	}
	panels = append(panels,
		report.Panel{Title: "User requests in flight (sent, not yet answered)", YLabel: "requests", YMin: &zero,
			Lines: overlay(overlayInFlight)},
		report.Panel{Title: "p99 latency of answered requests (client " + firstClient + ")", YLabel: "latency (ms)", LogY: true,
			Lines: overlay(overlayP99)})
	timeline := report.Figure{
		Title:    c.Name + ": variants compared",
		Subtitle: sub,
		Spans:    faultSpans(base),
		Panels:   panels,
	}
	return timeline
}

// metricBars is a metric's bar chart, a bar per variant; ok is false when
// no variant has a value.
func metricBars(c *Comparison, ms MetricStats) (bc report.BarChart, ok bool) {
	bc = report.BarChart{
		Title:    fmt.Sprintf("%s: %s", c.Name, ms.Metric.Label),
		Subtitle: fmt.Sprintf("mean over %d replication(s), whiskers: 95 %% Student-t interval", c.Replications),
		YLabel:   fmt.Sprintf("%s (%s)", ms.Metric.Label, ms.Metric.Unit),
		XLabel:   "variant",
	}
	bs := report.BarSeries{Label: ms.Metric.Label}
	any := false
	for _, st := range ms.Arms {
		v, lo, hi := st.Summary.Mean, st.Summary.Mean, st.Summary.Mean
		if st.Summary.Defined {
			lo, hi = st.Summary.CI95.Lo, st.Summary.CI95.Hi
		}
		if st.Summary.N == 0 || math.IsNaN(v) {
			v, lo, hi = math.NaN(), math.NaN(), math.NaN()
		} else {
			any = true
		}
		bc.Groups = append(bc.Groups, st.Arm)
		bs.Values, bs.Lo, bs.Hi = append(bs.Values, v), append(bs.Lo, lo), append(bs.Hi, hi)
	}
	bc.Series = []report.BarSeries{bs}
	return bc, any
}

// lockedBars is the chart of each variant's probability of staying
// locked in.
func lockedBars(c *Comparison, locked []LockedIn) report.BarChart {
	bc := report.BarChart{
		Title:    c.Name + ": probability of staying locked in",
		Subtitle: fmt.Sprintf("%d replication(s) per variant, whiskers: 95 %% Wilson interval", c.Replications),
		YLabel:   "P(locked in)",
		XLabel:   "variant",
	}
	bs := report.BarSeries{Label: "locked in after the first fault"}
	for _, l := range locked {
		bc.Groups = append(bc.Groups, l.Arm)
		bs.Values, bs.Lo, bs.Hi = append(bs.Values, l.P), append(bs.Lo, l.CI95.Lo), append(bs.Hi, l.CI95.Hi)
	}
	bc.Series = []report.BarSeries{bs}
	return bc
}

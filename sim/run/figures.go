package run

import (
	"fmt"

	"github.com/ressim/ressim/sim/report"
	"github.com/ressim/ressim/sim/topology"
)

// NamedFigure is a figure and the file name it is written to.
type NamedFigure struct {
	File   string
	Figure report.Figure
}

// Figures returns the default plots of a run: one timeline per service with
// its load (arrivals, throughput, rejections), its occupancy (queue length,
// busy workers) and its latency percentiles.
func Figures(res *topology.Result) []NamedFigure {
	ts := res.Series
	x := make([]float64, ts.Len())
	for i := range x {
		x[i] = float64(ts.End(i)) / 1e9
	}
	line := func(entity, metric, label string) report.Line {
		l := report.Line{Label: label, X: x}
		if c := ts.Find(entity, metric); c != nil {
			l.Y = c.Values()
		} else {
			l.Y = make([]float64, len(x))
		}
		return l
	}
	zero := 0.0
	var figs []NamedFigure
	for _, s := range res.Services {
		n := s.Name
		var spans []report.Span
		if res.Warmup > 0 {
			spans = append(spans, report.Span{From: 0, To: res.Warmup.Seconds(), Label: "warm-up"})
		}
		f := report.Figure{
			Title:    fmt.Sprintf("%s: service %s", res.Name, n),
			Subtitle: fmt.Sprintf("seed %d, %d workers, values per %v interval", res.Seed, s.Workers, ts.Interval()),
			Spans:    spans,
			Panels: []report.Panel{
				{
					Title: "Load", YLabel: "requests/s", YMin: &zero,
					Lines: []report.Line{
						line(n, "arrivals", "arrivals"),
						line(n, "throughput", "completed"),
						line(n, "rejected", "rejected"),
					},
				},
				{
					Title: "Occupancy (time average)", YLabel: "requests", YMin: &zero,
					Lines: []report.Line{
						line(n, "queue_length", "queue length"),
						line(n, "busy_workers", "busy workers"),
					},
				},
				{
					Title: "Latency (from intended send time)", YLabel: "latency (ms)", LogY: true,
					Lines: []report.Line{
						line(n, "latency_p50", "p50"),
						line(n, "latency_p90", "p90"),
						line(n, "latency_p99", "p99"),
						line(n, "latency_p999", "p99.9"),
					},
				},
			},
		}
		figs = append(figs, NamedFigure{File: "timeline-" + n + ".png", Figure: f})
	}
	return figs
}

package report

import (
	"io"
	"testing"
)

// benchFigure is the default figure that docs/performance.md times: 3
// panels, about 4 lines each, 3 600 points per line (an hour at 1 s
// steps), 1 200 x 900 px (the default size, see doc.go).
func benchFigure() Figure {
	f := sampleFigure(3600, 1200, 900)
	for i := range f.Panels {
		p := &f.Panels[i]
		for len(p.Lines) < 4 {
			l := p.Lines[len(p.Lines)-1]
			y := make([]float64, len(l.Y))
			for j, v := range l.Y {
				y[j] = v * 0.8
			}
			p.Lines = append(p.Lines, Line{Label: l.Label + " (x0.8)", X: l.X, Y: y})
		}
	}
	return f
}

func BenchmarkRenderPNG(b *testing.B) {
	f := benchFigure()
	b.ReportAllocs()
	for b.Loop() {
		if err := RenderPNG(io.Discard, f); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRenderSVG(b *testing.B) {
	f := benchFigure()
	b.ReportAllocs()
	for b.Loop() {
		if err := RenderSVG(io.Discard, f); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDownsample(b *testing.B) {
	f := benchFigure()
	l := f.Panels[0].Lines[1]
	dx, dy := make([]float64, 0, 2*1000+4), make([]float64, 0, 2*1000+4)
	b.ReportAllocs()
	for b.Loop() {
		dx, dy = Downsample(dx, dy, l.X, l.Y, 0, 3600, 1000)
	}
}

func BenchmarkBarChartPNG(b *testing.B) {
	c := sampleBarChart(1200, 800)
	b.ReportAllocs()
	for b.Loop() {
		if err := c.RenderPNG(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkHeatmapPNG(b *testing.B) {
	h := sampleHeatmap(1200, 800)
	b.ReportAllocs()
	for b.Loop() {
		if err := h.RenderPNG(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

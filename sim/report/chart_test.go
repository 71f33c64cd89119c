package report

import (
	"bytes"
	"errors"
	"image/color"
	"math"
	"slices"
	"testing"
)

func TestBarChartValidate(t *testing.T) {
	ok := sampleBarChart(0, 0)
	if err := ok.Validate(); err != nil {
		t.Fatalf("sample: %v", err)
	}
	tests := []struct {
		name string
		edit func(*BarChart)
	}{
		{"no groups", func(b *BarChart) { b.Groups = nil }},
		{"no series", func(b *BarChart) { b.Series = nil }},
		{"short values", func(b *BarChart) { b.Series[0].Values = b.Series[0].Values[:2] }},
		{"short lo", func(b *BarChart) { b.Series[1].Lo = b.Series[1].Lo[:1] }},
		{"lo without hi", func(b *BarChart) { b.Series[2].Hi = nil }},
		{"inf value", func(b *BarChart) { b.Series[0].Values[1] = math.Inf(1) }},
		{"lo > hi", func(b *BarChart) { b.Series[0].Lo[0], b.Series[0].Hi[0] = 5, 4 }},
		{"ymax <= 0", func(b *BarChart) { b.YMax = new(0.0) }},
		{"bad size", func(b *BarChart) { b.Width = 50 }},
	}
	for _, tt := range tests {
		b := sampleBarChart(0, 0)
		tt.edit(&b)
		if err := b.Validate(); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: Validate() = %v, want ErrInvalid", tt.name, err)
		}
		var buf bytes.Buffer
		if err := b.RenderPNG(&buf); !errors.Is(err, ErrInvalid) || buf.Len() != 0 {
			t.Errorf("%s: RenderPNG = %v with %d bytes written, want ErrInvalid and nothing", tt.name, err, buf.Len())
		}
	}
	// NaN is allowed: an empty slot, a missing whisker.
	b := sampleBarChart(600, 400)
	b.Series[0].Values[0], b.Series[1].Lo[2] = math.NaN(), math.NaN()
	if err := b.RenderSVG(new(bytes.Buffer)); err != nil {
		t.Errorf("NaN bar: %v", err)
	}
}

func TestHeatmapValidate(t *testing.T) {
	ok := sampleHeatmap(0, 0)
	if err := ok.Validate(); err != nil {
		t.Fatalf("sample: %v", err)
	}
	tests := []struct {
		name string
		edit func(*Heatmap)
	}{
		{"no x", func(h *Heatmap) { h.X = nil }},
		{"x not increasing", func(h *Heatmap) { h.X[2] = h.X[1] }},
		{"y nan", func(h *Heatmap) { h.Y[0] = math.NaN() }},
		{"rows mismatch", func(h *Heatmap) { h.Z = h.Z[1:] }},
		{"row short", func(h *Heatmap) { h.Z[3] = h.Z[3][1:] }},
		{"z inf", func(h *Heatmap) { h.Z[0][0] = math.Inf(-1) }},
		{"zmin >= zmax", func(h *Heatmap) { h.ZMin, h.ZMax = new(2.0), new(1.0) }},
		{"zmax nan", func(h *Heatmap) { h.ZMax = new(math.NaN()) }},
		{"bad size", func(h *Heatmap) { h.Height = MaxSize + 1 }},
		{"mark nan", func(h *Heatmap) { h.Marks[0].X = math.NaN() }},
		{"outline rows", func(h *Heatmap) { h.Outline = h.Outline[1:] }},
		{"outline row short", func(h *Heatmap) { h.Outline[2] = h.Outline[2][1:] }},
	}
	for _, tt := range tests {
		h := sampleHeatmap(0, 0)
		tt.edit(&h)
		if err := h.Validate(); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: Validate() = %v, want ErrInvalid", tt.name, err)
		}
	}
}

func TestEdges(t *testing.T) {
	tests := []struct{ c, want []float64 }{
		{[]float64{1}, []float64{0.5, 1.5}},
		{[]float64{0, 10}, []float64{-5, 5, 15}},
		{[]float64{1, 2, 4}, []float64{0.5, 1.5, 3, 5}},
	}
	for _, tt := range tests {
		if got := edges(tt.c); !slices.Equal(got, tt.want) {
			t.Errorf("edges(%v) = %v, want %v", tt.c, got, tt.want)
		}
	}
}

func TestViridis(t *testing.T) {
	tests := []struct {
		t    float64
		want color.RGBA
	}{
		{-1, viridis[0]}, {0, viridis[0]}, {0.5, viridis[5]}, {1, viridis[10]}, {2, viridis[10]},
		{0.05, color.RGBA{0x46, 0x13, 0x65, 0xFF}}, // halfway between the first two stops
	}
	for _, tt := range tests {
		if got := viridisAt(tt.t); got != tt.want {
			t.Errorf("viridisAt(%v) = %v, want %v", tt.t, got, tt.want)
		}
	}
	// Lightness rises monotonically: readable in grey.
	prev := -1.0
	for k := 0; k <= 100; k++ {
		c := viridisAt(float64(k) / 100)
		l := 0.2126*float64(c.R) + 0.7152*float64(c.G) + 0.0722*float64(c.B)
		if l < prev-0.5 {
			t.Fatalf("luminance falls at t=%v", float64(k)/100)
		}
		prev = l
	}
}

func TestZRange(t *testing.T) {
	h := Heatmap{Z: [][]float64{{math.NaN(), 3}, {7, 5}}}
	if lo, hi := h.zRange(); lo != 3 || hi != 7 {
		t.Errorf("zRange = [%v, %v], want [3, 7]", lo, hi)
	}
	h.ZMin = new(0.0)
	if lo, hi := h.zRange(); lo != 0 || hi != 7 {
		t.Errorf("zRange with ZMin 0 = [%v, %v], want [0, 7]", lo, hi)
	}
	h = Heatmap{Z: [][]float64{{4, 4}}}
	if lo, hi := h.zRange(); lo != 0 || hi != 4 {
		t.Errorf("flat zRange = [%v, %v], want [0, 4]", lo, hi)
	}
	h = Heatmap{Z: [][]float64{{math.NaN()}}}
	if lo, hi := h.zRange(); lo != 0 || hi != 1 {
		t.Errorf("empty zRange = [%v, %v], want [0, 1]", lo, hi)
	}
}

func TestGoldenCharts(t *testing.T) {
	b := sampleBarChart(600, 400)
	goldenPNG(t, "bars.png", render(t, func(w *bytes.Buffer) error { return b.RenderPNG(w) }))
	goldenBytes(t, "bars.svg", render(t, func(w *bytes.Buffer) error { return b.RenderSVG(w) }))
	h := sampleHeatmap(600, 400)
	goldenPNG(t, "heatmap.png", render(t, func(w *bytes.Buffer) error { return h.RenderPNG(w) }))
	goldenBytes(t, "heatmap.svg", render(t, func(w *bytes.Buffer) error { return h.RenderSVG(w) }))
}

func TestChartsDeterministic(t *testing.T) {
	b, h := sampleBarChart(800, 600), sampleHeatmap(800, 600)
	for _, c := range []struct {
		name string
		fn   func(*bytes.Buffer) error
	}{
		{"bars png", func(w *bytes.Buffer) error { return b.RenderPNG(w) }},
		{"bars svg", func(w *bytes.Buffer) error { return b.RenderSVG(w) }},
		{"heatmap png", func(w *bytes.Buffer) error { return h.RenderPNG(w) }},
		{"heatmap svg", func(w *bytes.Buffer) error { return h.RenderSVG(w) }},
	} {
		if !bytes.Equal(render(t, c.fn), render(t, c.fn)) {
			t.Errorf("%s differs between two renders", c.name)
		}
	}
}

func TestChartsWriteFile(t *testing.T) {
	dir := t.TempDir()
	if err := sampleBarChart(600, 400).WriteFile(dir + "/b.png"); err != nil {
		t.Error(err)
	}
	if err := sampleHeatmap(600, 400).WriteFile(dir + "/h.svg"); err != nil {
		t.Error(err)
	}
	if err := sampleHeatmap(600, 400).WriteFile(dir + "/h.pdf"); err == nil {
		t.Error("WriteFile(.pdf) = nil, want an error")
	}
}

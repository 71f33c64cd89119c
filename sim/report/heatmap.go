package report

import (
	"image/color"
	"io"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Heatmap shows a value over a grid of two parameters: a phase diagram
// such as "does the system recover?" over arrival rate x retry count. Each
// cell is coloured by its value on the viridis scale, with a colour bar.
type Heatmap struct {
	// Title names the experiment; Subtitle is an optional second line.
	Title, Subtitle string
	// XLabel, YLabel and ZLabel name the two parameters and the value,
	// with their units.
	XLabel, YLabel, ZLabel string
	// X and Y are the cell centres, strictly increasing.
	X, Y []float64
	// XTickLabels and YTickLabels, if set (one per centre), label the
	// centres instead of their numbers: pass X = 0, 1, 2, ... and the
	// parameter values as labels for a grid of equal cells over unevenly
	// spaced values.
	XTickLabels, YTickLabels []string
	// Z[j][i] is the value of the cell at (X[i], Y[j]); NaN is "no data"
	// and is drawn light grey.
	Z [][]float64
	// ZMin and ZMax fix the ends of the colour scale; nil means from the
	// data. Values beyond them take the end colours.
	ZMin, ZMax *float64
	// Annotate writes each cell's value in the cell when it fits
	// (3 significant digits).
	Annotate bool
	// Marks are reference values of the x axis, in the coordinates of X
	// (over equal cells, the caller maps a value to its place between
	// the centres), drawn as vertical lines labelled at the top. A mark
	// beyond the cells is labelled at the nearer edge, with an arrow.
	Marks []Mark
	// Outline, if not nil, has the shape of Z and draws the boundary of
	// the cells set to true (say, those locked in in most replications):
	// a thick line along every edge between a set and an unset cell.
	Outline [][]bool
	// Width and Height are the output size in pixels; see Figure.
	Width, Height int
}

// viridis holds 11 evenly spaced stops of matplotlib's viridis colour map
// (van der Walt and Smith, 2015): perceptually uniform, readable in grey
// and by the common colour-vision deficiencies.
var viridis = [...]color.RGBA{
	{0x44, 0x01, 0x54, 0xFF}, {0x48, 0x24, 0x75, 0xFF}, {0x41, 0x44, 0x87, 0xFF},
	{0x35, 0x5F, 0x8D, 0xFF}, {0x2A, 0x78, 0x8E, 0xFF}, {0x21, 0x91, 0x8C, 0xFF},
	{0x22, 0xA8, 0x84, 0xFF}, {0x44, 0xBF, 0x70, 0xFF}, {0x7A, 0xD1, 0x51, 0xFF},
	{0xBD, 0xDF, 0x26, 0xFF}, {0xFD, 0xE7, 0x25, 0xFF},
}

// viridisAt maps t in [0, 1] (clamped) to a colour, interpolating the
// stops linearly in sRGB.
func viridisAt(t float64) color.RGBA {
	t = math.Max(0, math.Min(1, t))
	f := t * float64(len(viridis)-1)
	i := min(int(f), len(viridis)-2)
	u := f - float64(i)
	a, b := viridis[i], viridis[i+1]
	mix := func(p, q uint8) uint8 { return uint8(math.Round(float64(p) + u*(float64(q)-float64(p)))) }
	return color.RGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 0xFF}
}

// Validate reports the first problem that would stop h from rendering.
// The error wraps ErrInvalid.
func (h *Heatmap) Validate() error {
	if (h.XTickLabels != nil && len(h.XTickLabels) != len(h.X)) || (h.YTickLabels != nil && len(h.YTickLabels) != len(h.Y)) {
		return invalid("heatmap %q: tick labels must match the centres one for one", h.Title)
	}
	if _, _, err := size(h.Width, h.Height); err != nil {
		return err
	}
	if len(h.X) == 0 || len(h.Y) == 0 {
		return invalid("heatmap needs at least one X and one Y")
	}
	for _, ax := range []struct {
		name string
		v    []float64
	}{{"X", h.X}, {"Y", h.Y}} {
		for i, v := range ax.v {
			if !finite(v) || i > 0 && v <= ax.v[i-1] {
				return invalid("heatmap %s must be finite and strictly increasing (index %d)", ax.name, i)
			}
		}
	}
	if len(h.Z) != len(h.Y) {
		return invalid("heatmap has %d rows of Z for %d Y values", len(h.Z), len(h.Y))
	}
	for j, row := range h.Z {
		if len(row) != len(h.X) {
			return invalid("heatmap Z row %d has %d values for %d X values", j, len(row), len(h.X))
		}
		for i, v := range row {
			if !gapOrFinite(v) {
				return invalid("heatmap Z[%d][%d] is infinite or beyond MaxAbs", j, i)
			}
		}
	}
	if err := h.validateOverlays(); err != nil {
		return err
	}
	if h.ZMin != nil && !finite(*h.ZMin) || h.ZMax != nil && !finite(*h.ZMax) {
		return invalid("heatmap ZMin/ZMax not finite")
	}
	if h.ZMin != nil && h.ZMax != nil && *h.ZMin >= *h.ZMax {
		return invalid("heatmap ZMin %v >= ZMax %v", *h.ZMin, *h.ZMax)
	}
	return nil
}

// RenderPNG draws h as a PNG image and writes it to w. See RenderPNG.
func (h Heatmap) RenderPNG(w io.Writer) error { return renderPNG(w, &h, nil) }

// RenderSVG draws h as an SVG document and writes it to w. See RenderSVG.
func (h Heatmap) RenderSVG(w io.Writer) error { return renderSVG(w, &h, nil) }

// WriteFile renders h to path (.png or .svg), atomically. See WriteFile.
func (h Heatmap) WriteFile(path string) error { return writeFile(path, &h, nil) }

func (h *Heatmap) dims() (int, int, error) { return size(h.Width, h.Height) }
func (h *Heatmap) name() string            { return h.Title }

// zRange is the colour scale: the fixed ends, or the finite data.
func (h *Heatmap) zRange() (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, row := range h.Z {
		for _, v := range row {
			if !math.IsNaN(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if math.IsInf(lo, 0) {
		lo, hi = 0, 1
	}
	if h.ZMin != nil {
		lo = *h.ZMin
	}
	if h.ZMax != nil {
		hi = *h.ZMax
	}
	if hi <= lo {
		if h.ZMin != nil {
			hi = lo + math.Max(math.Abs(lo), 1)
		} else {
			lo = hi - math.Max(math.Abs(hi), 1)
		}
	}
	return lo, hi
}

// edges returns the cell edges around centres c: midway between
// neighbours, and half a step beyond the ends (one step of 1 for a single
// centre).
func edges(c []float64) []float64 {
	e := make([]float64, len(c)+1)
	for i := 1; i < len(c); i++ {
		e[i] = (c[i-1] + c[i]) / 2
	}
	if len(c) == 1 {
		e[0], e[1] = c[0]-0.5, c[0]+0.5
		return e
	}
	e[0] = c[0] - (c[1]-c[0])/2
	e[len(c)] = c[len(c)-1] + (c[len(c)-1]-c[len(c)-2])/2
	return e
}

// centreTicks labels every centre when there are few (with labels, if
// given), else nice ticks.
func centreTicks(c []float64, labels []string, target int) plot.Ticker {
	if len(labels) == len(c) && len(c) > 0 {
		t := make(plot.ConstantTicks, len(c))
		for i, v := range c {
			t[i] = plot.Tick{Value: v, Label: labels[i]}
		}
		return t
	}
	if len(c) > 12 {
		return linearTicks{target: target, labels: true}
	}
	t := make(plot.ConstantTicks, len(c))
	for i, v := range c {
		t[i] = plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', 4, 64)}
	}
	return t
}

func (h *Heatmap) draw(dc draw.Canvas, wpx, hpx int) error {
	th := newTheme(wpx, hpx, false)
	p := newPlot(&th)
	ex, ey := edges(h.X), edges(h.Y)
	p.X.Min, p.X.Max = ex[0], ex[len(ex)-1]
	p.Y.Min, p.Y.Max = ey[0], ey[len(ey)-1]
	p.X.Tick.Marker = centreTicks(h.X, h.XTickLabels, 8)
	p.Y.Tick.Marker = centreTicks(h.Y, h.YTickLabels, 6)
	zlo, zhi := h.zRange()
	p.Add(&heatPlotter{h: h, ex: ex, ey: ey, zlo: zlo, zhi: zhi, text: th.small, pad: th.gap / 2})
	if h.Outline != nil {
		p.Add(outlinePlotter{set: h.Outline, ex: ex, ey: ey, width: 3 * th.lineWidth / 2})
	}
	if len(h.Marks) > 0 {
		p.Add(heatMarkPlotter{marks: h.Marks, th: &th})
	}

	// The colour bar: a gradient, its ticks to the right, then ZLabel.
	bar := vg.Length(18 * th.scale)
	ticks := linearTicks{target: 6, labels: true}.Ticks(zlo, zhi)
	tickW := vg.Length(0)
	for _, t := range ticks {
		tickW = max(tickW, th.tick.Width(t.Label))
	}
	zW := vg.Length(0)
	if h.ZLabel != "" {
		zW = th.label.Height(h.ZLabel) + th.gap
	}
	missing := false
	for _, row := range h.Z {
		for _, v := range row {
			missing = missing || math.IsNaN(v)
		}
	}
	const noData = "no data"
	if missing {
		tickW = max(tickW, th.tick.Width(noData))
	}
	side := sideColumn{width: bar + th.gap/2 + tickW + zW, draw: func(c draw.Canvas) {
		if missing { // a grey key for empty cells under the bar
			key := vg.Rectangle{Min: c.Min, Max: vg.Point{X: c.Min.X + bar, Y: c.Min.Y + bar}}
			c.SetColor(missColor)
			c.Fill(key.Path())
			c.StrokeLines(draw.LineStyle{Color: axisColor, Width: th.axisWidth}, []vg.Point{key.Min, {X: key.Max.X, Y: key.Min.Y}, key.Max, {X: key.Min.X, Y: key.Max.Y}, key.Min})
			sty := th.tick
			sty.YAlign = draw.YCenter
			c.FillText(sty, vg.Point{X: key.Max.X + th.gap/2, Y: (key.Min.Y + key.Max.Y) / 2}, noData)
			c.Min.Y += bar + th.gap
		}
		drawColourBar(c, &th, bar, zlo, zhi, ticks, h.ZLabel)
	}}
	return drawSingle(dc, &th, h.Title, h.Subtitle, h.XLabel, h.YLabel, p, side)
}

// drawColourBar draws a vertical viridis gradient of width bar at the left
// of c, for values zlo (bottom) to zhi (top), with labelled ticks and a
// rotated label.
func drawColourBar(c draw.Canvas, th *theme, bar vg.Length, zlo, zhi float64, ticks []plot.Tick, label string) {
	const steps = 64
	h := c.Max.Y - c.Min.Y
	for k := range steps {
		y0 := c.Min.Y + h*vg.Length(k)/steps
		y1 := c.Min.Y + h*vg.Length(k+1)/steps
		if k < steps-1 {
			y1 += h / steps / 2 // overlap to avoid seams
		}
		c.SetColor(viridisAt((float64(k) + 0.5) / steps))
		c.Fill(vg.Rectangle{Min: vg.Point{X: c.Min.X, Y: y0}, Max: vg.Point{X: c.Min.X + bar, Y: y1}}.Path())
	}
	axis := draw.LineStyle{Color: axisColor, Width: th.axisWidth}
	c.StrokeLines(axis, []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Min.X + bar, Y: c.Min.Y}, {X: c.Min.X + bar, Y: c.Max.Y}, {X: c.Min.X, Y: c.Max.Y}, {X: c.Min.X, Y: c.Min.Y}})
	sty := th.tick
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
	tickLen := vg.Length(4 * th.scale)
	right := c.Min.X + bar + th.gap/2
	for _, t := range ticks {
		y := c.Min.Y + vg.Length((t.Value-zlo)/(zhi-zlo))*h
		c.StrokeLine2(axis, c.Min.X+bar-tickLen, y, c.Min.X+bar, y)
		c.FillText(sty, vg.Point{X: c.Min.X + bar + th.gap/2, Y: y}, t.Label)
		right = max(right, c.Min.X+bar+th.gap/2+sty.Width(t.Label))
	}
	if label != "" {
		ls := th.label
		ls.Rotation = math.Pi / 2
		ls.XAlign, ls.YAlign = draw.XCenter, draw.YTop
		c.FillText(ls, vg.Point{X: right + th.gap, Y: (c.Min.Y + c.Max.Y) / 2}, label)
	}
}

// heatPlotter fills the cells of a Heatmap.
type heatPlotter struct {
	h        *Heatmap
	ex, ey   []float64
	zlo, zhi float64
	text     text.Style
	pad      vg.Length
}

func (hp *heatPlotter) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	sty := hp.text
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
	for j, row := range hp.h.Z {
		for i, v := range row {
			x0, x1 := trX(hp.ex[i]), trX(hp.ex[i+1])
			y0, y1 := trY(hp.ey[j]), trY(hp.ey[j+1])
			col := missColor
			if !math.IsNaN(v) {
				col = viridisAt((v - hp.zlo) / (hp.zhi - hp.zlo))
			}
			// Overlap the next cell by half a point to avoid hairline
			// seams from anti-aliasing; the next cell paints over it.
			ox, oy := vg.Length(0), vg.Length(0)
			if i < len(row)-1 {
				ox = 0.5
			}
			if j < len(hp.h.Z)-1 {
				oy = 0.5
			}
			c.SetColor(col)
			c.Fill(vg.Rectangle{Min: vg.Point{X: x0, Y: y0}, Max: vg.Point{X: x1 + ox, Y: y1 + oy}}.Path())
			if !hp.h.Annotate || math.IsNaN(v) {
				continue
			}
			s := strconv.FormatFloat(v, 'g', 3, 64)
			if sty.Width(s)+hp.pad <= x1-x0 && sty.Height(s) <= y1-y0 {
				sty.Color = textOn(col)
				c.FillText(sty, vg.Point{X: (x0 + x1) / 2, Y: (y0 + y1) / 2}, s)
			}
		}
	}
}

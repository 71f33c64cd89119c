package report

import (
	"image/color"
	"io"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// DoseResponse draws a probability against a trigger (P(locked in)
// against a fault's duration, say): measured shares with their interval
// whiskers, a fitted curve with its band, the target probability and the
// threshold where the curve reaches it, with the threshold's interval
// shaded. The zero values of Width and Height select DefaultWidth and
// DefaultHeight.
type DoseResponse struct {
	// Title and Subtitle head the chart; XLabel and YLabel name the axes.
	Title, Subtitle, XLabel, YLabel string
	// LogX draws the trigger on a log scale; every x must then be > 0.
	LogX bool
	// Points are the measured shares.
	Points []DosePoint
	// CurveX and Curve are the fitted curve (CurveX increasing); BandLo
	// and BandHi, if not nil, its band, one value per CurveX.
	CurveX, Curve, BandLo, BandHi []float64
	// Target is the probability the threshold is defined by, drawn as a
	// dashed horizontal line.
	Target float64
	// Threshold, ThresholdLo and ThresholdHi are the threshold and its
	// interval (NaN: none), named ThresholdLabel in the legend.
	Threshold, ThresholdLo, ThresholdHi float64
	ThresholdLabel                      string
	// Width and Height are the output size in pixels; see Figure.
	Width, Height int
}

// DosePoint is one measured share: at trigger X, Y with the interval
// [Lo, Hi], and a label written beside it ("3/8").
type DosePoint struct {
	X, Y, Lo, Hi float64
	Label        string
}

// Validate reports the first problem that would stop d from rendering.
// The error wraps ErrInvalid.
func (d *DoseResponse) Validate() error {
	if _, _, err := size(d.Width, d.Height); err != nil {
		return err
	}
	if len(d.Points) == 0 && len(d.CurveX) == 0 {
		return invalid("dose-response chart needs points or a curve")
	}
	if len(d.Curve) != len(d.CurveX) || d.BandLo != nil && len(d.BandLo) != len(d.CurveX) || d.BandHi != nil && len(d.BandHi) != len(d.CurveX) {
		return invalid("dose-response chart: CurveX, Curve, BandLo and BandHi need the same length")
	}
	okX := func(x float64) bool { return finite(x) && (!d.LogX || x >= MinLog) }
	for i, x := range d.CurveX {
		if !okX(x) || i > 0 && x < d.CurveX[i-1] {
			return invalid("dose-response chart: curve x %d (%v) is not finite, positive on a log axis, and increasing", i, x)
		}
	}
	for i, p := range d.Points {
		if !okX(p.X) || !gapOrFinite(p.Y) || !gapOrFinite(p.Lo) || !gapOrFinite(p.Hi) {
			return invalid("dose-response chart: point %d is not finite (or not positive on a log axis)", i)
		}
	}
	for _, x := range []float64{d.Threshold, d.ThresholdLo, d.ThresholdHi} {
		if !math.IsNaN(x) && !okX(x) {
			return invalid("dose-response chart: threshold %v is not finite (or not positive on a log axis)", x)
		}
	}
	return nil
}

// RenderPNG draws d as a PNG image and writes it to w. See RenderPNG.
func (d DoseResponse) RenderPNG(w io.Writer) error { return renderPNG(w, &d, nil) }

// RenderSVG draws d as an SVG document and writes it to w. See RenderSVG.
func (d DoseResponse) RenderSVG(w io.Writer) error { return renderSVG(w, &d, nil) }

// WriteFile renders d to path (.png or .svg), atomically. See WriteFile.
func (d DoseResponse) WriteFile(path string) error { return writeFile(path, &d, nil) }

func (d *DoseResponse) dims() (int, int, error) { return size(d.Width, d.Height) }
func (d *DoseResponse) name() string            { return d.Title }

var (
	bandFill       = color.RGBA{0xC6, 0xDE, 0xF0, 0xFF} // light blue, the fitted curve's band
	thresholdColor = okabeIto[1]                        // vermillion
)

func (d *DoseResponse) draw(dc draw.Canvas, wpx, hpx int) error {
	th := newTheme(wpx, hpx, false)
	p := newPlot(&th)
	xlo, xhi := math.Inf(1), math.Inf(-1)
	for _, x := range d.CurveX {
		xlo, xhi = math.Min(xlo, x), math.Max(xhi, x)
	}
	for _, pt := range d.Points {
		xlo, xhi = math.Min(xlo, pt.X), math.Max(xhi, pt.X)
	}
	if d.LogX {
		if xhi <= xlo {
			xlo, xhi = xlo/2, xhi*2
		}
		// A little room either side, in ratio.
		r := math.Pow(xhi/xlo, 0.03)
		p.X.Min, p.X.Max = xlo/r, xhi*r
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = logTicks125{}
	} else {
		if xhi <= xlo {
			xlo, xhi = xlo-1, xhi+1
		}
		pad := 0.03 * (xhi - xlo)
		p.X.Min, p.X.Max = xlo-pad, xhi+pad
		p.X.Tick.Marker = linearTicks{target: 8, labels: true}
	}
	p.Y.Min, p.Y.Max = -0.02, 1.02
	p.Y.Tick.Marker = plot.ConstantTicks{{Value: 0, Label: "0"}, {Value: 0.25, Label: "0.25"}, {Value: 0.5, Label: "0.5"}, {Value: 0.75, Label: "0.75"}, {Value: 1, Label: "1"}}
	p.Add(doseShade{d: d})
	p.Add(gridPlotter{style: draw.LineStyle{Color: gridColor, Width: th.gridWidth}, vertical: true, horiz: true})
	curve := draw.LineStyle{Color: okabeIto[0], Width: th.lineWidth * 1.25}
	target := markStyle(&th)
	thr := draw.LineStyle{Color: thresholdColor, Width: th.lineWidth, Dashes: []vg.Length{vg.Length(9 * th.scale), vg.Length(4 * th.scale)}}
	glyph := draw.GlyphStyle{Color: color.Black, Radius: vg.Length(5 * th.scale), Shape: draw.CircleGlyph{}}
	whisker := draw.LineStyle{Color: axisColor, Width: vg.Length(1.1 * th.scale)}
	label := th.small
	p.Add(doseLines{d: d, curve: curve, target: target, thr: thr, glyph: glyph, whisker: whisker, label: label})

	legend := newLegend(&th)
	if len(d.Points) > 0 {
		legend.Add("share locked in,\nwith its 95 % interval", glyphThumb{style: glyph})
	}
	if len(d.CurveX) > 0 {
		legend.Add("fitted curve", lineThumb{style: curve})
	}
	if d.BandLo != nil {
		legend.Add("its 95 % band", swatch{fill: bandFill})
	}
	legend.Add("target P = "+formatValue(d.Target), lineThumb{style: target})
	if !math.IsNaN(d.Threshold) {
		legend.Add(d.ThresholdLabel, lineThumb{style: thr})
		legend.Add("its 95 % interval", swatch{fill: spanFill})
	}
	side := sideColumn{width: legendWidth(&legend), draw: func(c draw.Canvas) { legend.Draw(c) }}
	return drawSingle(dc, &th, d.Title, d.Subtitle, d.XLabel, d.YLabel, p, side)
}

// doseShade fills the threshold's interval and the curve's band, under
// the grid.
type doseShade struct{ d *DoseResponse }

func (s doseShade) Plot(c draw.Canvas, p *plot.Plot) {
	d := s.d
	trX, trY := p.Transforms(&c)
	clipX := func(x float64) vg.Length { return max(c.Min.X, min(c.Max.X, trX(x))) }
	if !math.IsNaN(d.ThresholdLo) && !math.IsNaN(d.ThresholdHi) {
		x0, x1 := clipX(d.ThresholdLo), clipX(d.ThresholdHi)
		if x1-x0 < 1 {
			x1 = x0 + 1
		}
		c.SetColor(spanFill)
		c.Fill(vg.Rectangle{Min: vg.Point{X: x0, Y: c.Min.Y}, Max: vg.Point{X: x1, Y: c.Max.Y}}.Path())
	}
	if d.BandLo != nil && len(d.CurveX) > 1 {
		var path vg.Path
		for i, x := range d.CurveX {
			pt := vg.Point{X: clipX(x), Y: trY(d.BandHi[i])}
			if i == 0 {
				path.Move(pt)
			} else {
				path.Line(pt)
			}
		}
		for i := len(d.CurveX) - 1; i >= 0; i-- {
			path.Line(vg.Point{X: clipX(d.CurveX[i]), Y: trY(d.BandLo[i])})
		}
		path.Close()
		c.SetColor(bandFill)
		c.Fill(path)
	}
}

// doseLines draws the target, the threshold, the curve and the points.
type doseLines struct {
	d                  *DoseResponse
	curve, target, thr draw.LineStyle
	glyph              draw.GlyphStyle
	whisker            draw.LineStyle
	label              text.Style
}

func (l doseLines) Plot(c draw.Canvas, p *plot.Plot) {
	d := l.d
	trX, trY := p.Transforms(&c)
	y := trY(d.Target)
	c.StrokeLine2(l.target, c.Min.X, y, c.Max.X, y)
	if x := trX(d.Threshold); !math.IsNaN(d.Threshold) && x >= c.Min.X && x <= c.Max.X {
		c.StrokeLine2(l.thr, x, c.Min.Y, x, c.Max.Y)
	}
	if len(d.CurveX) > 1 {
		pts := make([]vg.Point, len(d.CurveX))
		for i, x := range d.CurveX {
			pts[i] = vg.Point{X: trX(x), Y: trY(d.Curve[i])}
		}
		c.StrokeLines(l.curve, pts)
	}
	capW := l.glyph.Radius
	var placed []vg.Rectangle
	for _, pt := range d.Points {
		x := trX(pt.X)
		if !math.IsNaN(pt.Lo) && !math.IsNaN(pt.Hi) {
			y0, y1 := trY(pt.Lo), trY(pt.Hi)
			c.StrokeLine2(l.whisker, x, y0, x, y1)
			c.StrokeLine2(l.whisker, x-capW, y0, x+capW, y0)
			c.StrokeLine2(l.whisker, x-capW, y1, x+capW, y1)
		}
		if math.IsNaN(pt.Y) {
			continue
		}
		at := vg.Point{X: x, Y: trY(pt.Y)}
		c.DrawGlyph(l.glyph, at)
		if pt.Label == "" {
			continue
		}
		// Above the point at the bottom, below it at the top, so that the
		// label stays inside the data area; on the other side when that
		// would cover an earlier label, and left out when both would.
		sty := l.label
		sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
		w, h := sty.Width(pt.Label), sty.Height(pt.Label)
		dy := 2.2 * l.glyph.Radius
		if pt.Y > 0.5 {
			dy = -dy
		}
		for _, side := range []vg.Length{dy, -dy} {
			org := vg.Point{X: x + 1.2*l.glyph.Radius, Y: at.Y + side}
			pad := l.glyph.Radius // room between labels
			r := vg.Rectangle{Min: vg.Point{X: org.X - pad, Y: org.Y - h/2}, Max: vg.Point{X: org.X + w + pad, Y: org.Y + h/2}}
			if r.Min.Y < c.Min.Y || r.Max.Y > c.Max.Y || overlapsAny(r, placed) {
				continue
			}
			placed = append(placed, r)
			c.FillText(sty, org, pt.Label)
			break
		}
	}
}

// overlapsAny reports whether r overlaps one of rs.
func overlapsAny(r vg.Rectangle, rs []vg.Rectangle) bool {
	for _, q := range rs {
		if r.Min.X < q.Max.X && q.Min.X < r.Max.X && r.Min.Y < q.Max.Y && q.Min.Y < r.Max.Y {
			return true
		}
	}
	return false
}

// lineThumb is a legend thumbnail: a line in its style.
type lineThumb struct{ style draw.LineStyle }

func (t lineThumb) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(t.style, c.Min.X, y, c.Max.X, y)
}

// logTicks125 labels 1, 2 and 5 times each power of ten in [lo, hi] when
// the range spans fewer than four decades (every power of ten otherwise),
// with unlabelled ticks at the other multiples.
type logTicks125 struct{}

func (logTicks125) Ticks(lo, hi float64) []plot.Tick {
	ticks := logTicks{labels: true}.Ticks(lo, hi)
	if math.Log10(hi/lo) >= 4 {
		return ticks
	}
	for i, t := range ticks {
		e := math.Pow(10, math.Floor(math.Log10(t.Value)+1e-9))
		if m := math.Round(t.Value / e); m == 2 || m == 5 {
			ticks[i].Label = formatTick(t.Value, e, t.Value)
		}
	}
	return ticks
}

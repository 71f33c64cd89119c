package report

import (
	"image/color"
	"io"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// LogPoints draws series of positive values against x on a logarithmic
// y axis (a stationary distribution over the backlog, a probability per
// level), each as a line with optional points and interval whiskers, with
// vertical dashed marks. Values at or below MinY are left out (a
// probability of 0 has no place on a log axis). The zero values of Width
// and Height select DefaultWidth and DefaultHeight.
type LogPoints struct {
	// Title and Subtitle head the chart; XLabel and YLabel name the axes.
	Title, Subtitle, XLabel, YLabel string
	// Series are drawn in order, in the Okabe-Ito colours.
	Series []LogSeries
	// Marks are vertical dashed lines, named in the legend.
	Marks []LogMark
	// MinY is the lowest value drawn (default 1e-300).
	MinY float64
	// Width and Height are the output size in pixels; see Figure.
	Width, Height int
}

// LogSeries is one series: Y against X, with Lo and Hi whiskers when not
// nil; Points draws a dot at each value, Line joins them.
type LogSeries struct {
	Name         string
	X, Y, Lo, Hi []float64
	Points, Line bool
	// Big draws the points twice the size, outlined, above the others.
	Big bool
}

// LogMark is a vertical dashed line at X named Label.
type LogMark struct {
	X     float64
	Label string
}

// Validate reports the first problem that would stop l from rendering.
func (l *LogPoints) Validate() error {
	if _, _, err := size(l.Width, l.Height); err != nil {
		return err
	}
	n := 0
	for i, s := range l.Series {
		if len(s.Y) != len(s.X) || s.Lo != nil && len(s.Lo) != len(s.X) || s.Hi != nil && len(s.Hi) != len(s.X) {
			return invalid("log chart: series %d: X, Y, Lo and Hi need the same length", i)
		}
		for j, x := range s.X {
			if !finite(x) || !gapOrFinite(s.Y[j]) {
				return invalid("log chart: series %d point %d is not finite", i, j)
			}
			if s.Y[j] > l.minY() {
				n++
			}
		}
	}
	if n == 0 {
		return invalid("log chart needs a positive value")
	}
	for _, m := range l.Marks {
		if !finite(m.X) {
			return invalid("log chart: mark %v is not finite", m.X)
		}
	}
	return nil
}

func (l *LogPoints) minY() float64 {
	if l.MinY > 0 {
		return l.MinY
	}
	return 1e-300
}

// RenderPNG draws l as a PNG image and writes it to w.
func (l LogPoints) RenderPNG(w io.Writer) error { return renderPNG(w, &l, nil) }

// RenderSVG draws l as an SVG document and writes it to w.
func (l LogPoints) RenderSVG(w io.Writer) error { return renderSVG(w, &l, nil) }

// WriteFile renders l to path (.png or .svg), atomically.
func (l LogPoints) WriteFile(path string) error { return writeFile(path, &l, nil) }

func (l *LogPoints) dims() (int, int, error) { return size(l.Width, l.Height) }
func (l *LogPoints) name() string            { return l.Title }

func (l *LogPoints) draw(dc draw.Canvas, wpx, hpx int) error {
	if err := l.Validate(); err != nil {
		return err
	}
	th := newTheme(wpx, hpx, false)
	p := newPlot(&th)
	xlo, xhi := math.Inf(1), math.Inf(-1)
	ylo, yhi := math.Inf(1), math.Inf(-1)
	for _, s := range l.Series {
		for j, x := range s.X {
			xlo, xhi = math.Min(xlo, x), math.Max(xhi, x)
			for _, v := range []float64{s.Y[j], at(s.Lo, j), at(s.Hi, j)} {
				if v > l.minY() && finite(v) {
					ylo, yhi = math.Min(ylo, v), math.Max(yhi, v)
				}
			}
		}
	}
	for _, m := range l.Marks {
		xlo, xhi = math.Min(xlo, m.X), math.Max(xhi, m.X)
	}
	if xhi <= xlo {
		xlo, xhi = xlo-1, xhi+1
	}
	pad := 0.03 * (xhi - xlo)
	p.X.Min, p.X.Max = xlo-pad, xhi+pad
	p.X.Tick.Marker = linearTicks{target: 10, labels: true}
	// Whole decades, at least one.
	ylo, yhi = math.Pow(10, math.Floor(math.Log10(ylo))), math.Pow(10, math.Ceil(math.Log10(yhi)))
	if yhi <= ylo {
		yhi = ylo * 10
	}
	p.Y.Min, p.Y.Max = ylo, yhi
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = logTicks{labels: true}
	p.Add(gridPlotter{style: draw.LineStyle{Color: gridColor, Width: th.gridWidth}, vertical: true, horiz: true})
	legend := newLegend(&th)
	mark := draw.LineStyle{Color: thresholdColor, Width: th.lineWidth, Dashes: []vg.Length{vg.Length(9 * th.scale), vg.Length(4 * th.scale)}}
	for _, m := range l.Marks {
		p.Add(logMark{x: m.X, style: mark})
		legend.Add(m.Label, lineThumb{style: mark})
	}
	for i, s := range l.Series {
		col := okabeIto[i%len(okabeIto)]
		line := draw.LineStyle{Color: col, Width: th.lineWidth * 1.25}
		glyph := draw.GlyphStyle{Color: col, Radius: vg.Length(4 * th.scale), Shape: draw.CircleGlyph{}}
		if s.Big {
			glyph.Radius *= 2
		}
		whisker := draw.LineStyle{Color: col, Width: vg.Length(1.1 * th.scale)}
		p.Add(logSeries{s: s, min: l.minY(), line: line, glyph: glyph, whisker: whisker})
		if s.Points {
			legend.Add(s.Name, glyphThumb{style: glyph})
		} else {
			legend.Add(s.Name, lineThumb{style: line})
		}
	}
	side := sideColumn{width: legendWidth(&legend), draw: func(c draw.Canvas) { legend.Draw(c) }}
	return drawSingle(dc, &th, l.Title, l.Subtitle, l.XLabel, l.YLabel, p, side)
}

func at(v []float64, i int) float64 {
	if v == nil {
		return math.NaN()
	}
	return v[i]
}

type logMark struct {
	x     float64
	style draw.LineStyle
}

func (m logMark) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	x := trX(m.x)
	c.StrokeLine2(m.style, x, c.Min.Y, x, c.Max.Y)
}

type logSeries struct {
	s             LogSeries
	min           float64
	line, whisker draw.LineStyle
	glyph         draw.GlyphStyle
}

func (l logSeries) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	clipY := func(v float64) vg.Length { return max(c.Min.Y, min(c.Max.Y, trY(v))) }
	s := l.s
	if s.Line {
		var run []vg.Point
		flush := func() {
			if len(run) > 1 {
				c.StrokeLines(l.line, run)
			}
			run = run[:0]
		}
		for j, x := range s.X {
			if !(s.Y[j] > l.min) {
				flush()
				continue
			}
			run = append(run, vg.Point{X: trX(x), Y: trY(s.Y[j])})
		}
		flush()
	}
	capW := l.glyph.Radius
	for j, x := range s.X {
		px := trX(x)
		if lo, hi := at(s.Lo, j), at(s.Hi, j); hi > l.min {
			y0, y1 := c.Min.Y, clipY(hi)
			if lo > l.min {
				y0 = clipY(lo)
			}
			c.StrokeLine2(l.whisker, px, y0, px, y1)
			c.StrokeLine2(l.whisker, px-capW, y1, px+capW, y1)
			if lo > l.min {
				c.StrokeLine2(l.whisker, px-capW, y0, px+capW, y0)
			}
		}
		if s.Points && s.Y[j] > l.min {
			pt := vg.Point{X: px, Y: trY(s.Y[j])}
			if s.Big {
				ring := l.glyph
				ring.Color, ring.Radius = color.Black, l.glyph.Radius+vg.Length(1.5)
				c.DrawGlyph(ring, pt)
			}
			c.DrawGlyph(l.glyph, pt)
		}
	}
}

package report

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// linePlotter draws one Line, downsampled to the pixel width of the data
// area it is given, with NaN as gaps. It implements plot.Plotter and
// plot.Thumbnailer.
type linePlotter struct {
	x, y   []float64
	style  draw.LineStyle
	logY   bool
	chunk  bool // stroke long runs in pieces (raster output only)
	points bool // a dot at every point (Line.Points)

	// scratch, reused across Plot calls
	bx, by []float64
	pts    []vg.Point
}

func (l *linePlotter) Plot(c draw.Canvas, p *plot.Plot) {
	cols := int(math.Ceil((c.Max.X - c.Min.X).Dots(dpi)))
	l.bx, l.by = downsample(l.bx[:0], l.by[:0], l.x, l.y, p.X.Min, p.X.Max, cols, l.logY)
	trX, trY := p.Transforms(&c)
	l.pts = l.pts[:0]
	for i, y := range l.by {
		if math.IsNaN(y) {
			l.stroke(c, l.pts)
			l.pts = l.pts[:0]
			continue
		}
		l.pts = append(l.pts, vg.Point{X: trX(l.bx[i]), Y: trY(y)})
	}
	l.stroke(c, l.pts)
	if l.points {
		dot := draw.GlyphStyle{Color: l.style.Color, Radius: 2.2 * l.style.Width, Shape: draw.CircleGlyph{}}
		for i, y := range l.by {
			if pt := (vg.Point{X: trX(l.bx[i]), Y: trY(y)}); !math.IsNaN(y) && c.Contains(pt) {
				c.DrawGlyph(dot, pt)
			}
		}
	}
}

// stroke draws one gap-free run; a lone point becomes a dot so that it
// stays visible.
func (l *linePlotter) stroke(c draw.Canvas, pts []vg.Point) {
	switch {
	case len(pts) == 1:
		if c.Contains(pts[0]) {
			c.DrawGlyph(draw.GlyphStyle{Color: l.style.Color, Radius: l.style.Width, Shape: draw.CircleGlyph{}}, pts[0])
		}
	case len(pts) > 1:
		// The rasteriser (freetype's) slows down quadratically with the
		// number of cells a single path covers per pixel row, so a long
		// run is stroked in pieces of strokeChunk segments. Consecutive
		// pieces share one segment, so every join is still drawn.
		for l.chunk && len(pts) > strokeChunk+1 {
			c.StrokeLines(l.style, pts[:strokeChunk+1])
			pts = pts[strokeChunk-1:]
		}
		c.StrokeLines(l.style, pts)
	}
}

// strokeChunk is the number of segments stroked as one path. 64 is about
// 4x faster than one path for a noisy 2 400-point line at 1 200 px, and
// smaller pieces gain nothing more.
const strokeChunk = 64

func (l *linePlotter) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(l.style, c.Min.X, y, c.Max.X, y)
}

// swatch is a legend thumbnail: a filled square.
type swatch struct{ fill color.Color }

func (s swatch) Thumbnail(c *draw.Canvas) {
	h := c.Max.Y - c.Min.Y
	r := vg.Rectangle{Min: vg.Point{X: c.Min.X + (c.Max.X-c.Min.X-h)/2, Y: c.Min.Y}, Max: vg.Point{X: c.Min.X + (c.Max.X-c.Min.X+h)/2, Y: c.Max.Y}}
	c.SetColor(s.fill)
	c.Fill(r.Path())
}

// gridPlotter draws light grid lines at the labelled ticks of both axes.
type gridPlotter struct {
	style    draw.LineStyle
	vertical bool // draw vertical lines (x grid)
	horiz    bool // draw horizontal lines (y grid)
}

func (g gridPlotter) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	if g.vertical {
		for _, v := range majorTicks(p.X.Tick.Marker, p.X.Min, p.X.Max) {
			x := trX(v)
			if x >= c.Min.X && x <= c.Max.X {
				c.StrokeLine2(g.style, x, c.Min.Y, x, c.Max.Y)
			}
		}
	}
	if g.horiz {
		for _, v := range majorTicks(p.Y.Tick.Marker, p.Y.Min, p.Y.Max) {
			y := trY(v)
			if y >= c.Min.Y && y <= c.Max.Y {
				c.StrokeLine2(g.style, c.Min.X, y, c.Max.X, y)
			}
		}
	}
}

// spanPlotter shades fault windows over the full height of a panel.
type spanPlotter struct {
	spans []Span
}

func (s spanPlotter) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	c.SetColor(spanFill)
	for _, sp := range s.spans {
		x0, x1 := max(trX(sp.From), c.Min.X), min(trX(sp.To), c.Max.X)
		if x1 < x0 {
			continue
		}
		if x1-x0 < 1 { // keep an instantaneous fault visible
			x1 = x0 + 1
		}
		r := vg.Rectangle{Min: vg.Point{X: x0, Y: c.Min.Y}, Max: vg.Point{X: x1, Y: c.Max.Y}}
		c.Fill(r.Path())
	}
}

// spanLabel is a label placed in the lane above the first panel (a
// fault window's, or a mark's): its left edge and its row (0 = the row
// nearest the data).
type spanLabel struct {
	text string
	x    vg.Length
	row  int
	mark bool // a Mark's label, not a fault's
}

// laneItem is what the lane above the first panel labels: a fault
// window [from, to), or a mark at from = to.
type laneItem struct {
	from, to float64
	label    string
	mark     bool
}

// laneItems lists the spans, then the marks.
func laneItems(spans []Span, marks []Mark) []laneItem {
	out := make([]laneItem, 0, len(spans)+len(marks))
	for _, s := range spans {
		out = append(out, laneItem{from: s.From, to: s.To, label: s.Label})
	}
	for _, m := range marks {
		out = append(out, laneItem{from: m.X, to: m.X, label: m.Label, mark: true})
	}
	return out
}

// placeSpanLabels lays the lane's labels out left to right along [left,
// right] (the data area, for x in [xlo, xhi]), each starting at its span
// or mark and moving up a row when it would overlap a label before it.
func placeSpanLabels(items []laneItem, sty text.Style, left, right vg.Length, xlo, xhi float64, pad vg.Length) (out []spanLabel, rows int) {
	var rowEnd []vg.Length // right end of the last label in each row
	for _, sp := range items {
		if sp.label == "" || sp.to < xlo || sp.from > xhi {
			continue
		}
		x := left + vg.Length((math.Max(sp.from, xlo)-xlo)/(xhi-xlo))*(right-left) + pad/2
		w := sty.Width(sp.label)
		if x+w > right { // keep the label inside the data width
			x = max(left, right-w)
		}
		row := 0
		for row < len(rowEnd) && x < rowEnd[row]+pad {
			row++
		}
		if row == len(rowEnd) {
			rowEnd = append(rowEnd, 0)
		}
		rowEnd[row] = x + w
		out = append(out, spanLabel{text: sp.label, x: x, row: row, mark: sp.mark})
	}
	return out, len(rowEnd)
}

// markPlotter draws marks as dashed vertical lines over the full height
// of a panel.
type markPlotter struct {
	marks []Mark
	style draw.LineStyle
}

func (m markPlotter) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	for _, mk := range m.marks {
		if x := trX(mk.X); x >= c.Min.X && x <= c.Max.X {
			c.StrokeLine2(m.style, x, c.Min.Y, x, c.Max.Y)
		}
	}
}

// statePlotter draws state bands as coloured blocks across the full
// height of a strip, naming the state inside a band when it fits. A band
// narrower than minW (a half-open breaker whose probe failed within
// 300 ms, on a 100 s axis) is widened to minW about its middle and drawn
// after the others, on top, so that every state held shows.
type statePlotter struct {
	bands  []StateBand
	colour func(string) color.RGBA
	text   text.Style
	pad    vg.Length
	minW   vg.Length
}

func (s statePlotter) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	for _, narrow := range []bool{false, true} {
		for _, b := range s.bands {
			x0, x1 := max(trX(b.From), c.Min.X), min(trX(b.To), c.Max.X)
			if b.To <= b.From || x1 < x0 || (x1-x0 < s.minW) != narrow {
				continue
			}
			if narrow {
				mid := (x0 + x1) / 2
				x0, x1 = max(c.Min.X, mid-s.minW/2), min(c.Max.X, mid+s.minW/2)
			}
			s.band(c, b, x0, x1)
		}
	}
}

// band draws one band over [x0, x1].
func (s statePlotter) band(c draw.Canvas, b StateBand, x0, x1 vg.Length) {
	sty := s.text
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
	col := s.colour(b.State)
	r := vg.Rectangle{Min: vg.Point{X: x0, Y: c.Min.Y}, Max: vg.Point{X: x1, Y: c.Max.Y}}
	c.SetColor(col)
	c.Fill(r.Path())
	if b.State != "" && sty.Width(b.State)+2*s.pad <= x1-x0 && sty.Height(b.State) <= c.Max.Y-c.Min.Y {
		sty.Color = textOn(col)
		c.FillText(sty, vg.Point{X: (x0 + x1) / 2, Y: (c.Min.Y + c.Max.Y) / 2}, b.State)
	}
}

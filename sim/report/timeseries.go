package report

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// item is one stacked plot: a panel, or the state strip under a panel.
type item struct {
	p      *plot.Plot
	legend plot.Legend
	title  string // panel title, drawn above the data area
	ylabel string // rotated y label (panels) or strip label (strips)
	strip  bool

	// layout, in vg lengths
	left, right, bottom vg.Length // room the axes need around the data area
	need                vg.Length // room needed on the left, strip label included
	top                 vg.Length // room above the data area (title, gap)
	dataH               vg.Length

	// direct labels, one per labelled line, drawn at the lines' right
	// ends instead of the legend when useDirect (see fitsDirect)
	direct    []directLabel
	markers   bool // the panel has markers, which only a legend explains
	useDirect bool
}

// xRange is the shared x range: all line points, spans and state bands.
func (f *Figure) xRange() (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	see := func(v float64) { lo, hi = math.Min(lo, v), math.Max(hi, v) }
	for _, p := range f.Panels {
		for _, l := range p.Lines {
			if len(l.X) > 0 {
				see(l.X[0])
				see(l.X[len(l.X)-1])
			}
		}
		for _, s := range p.States {
			see(s.From)
			see(s.To)
		}
	}
	for _, s := range f.Spans {
		see(s.From)
		see(s.To)
	}
	switch {
	case math.IsInf(lo, 0):
		return 0, 1
	case lo == hi:
		return lo - 1, hi + 1
	}
	return lo, hi
}

// yRange is the y range of a panel: fixed ends, or the data widened to
// nice ticks.
func (p *Panel) yRange(target int) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, l := range p.Lines {
		for _, v := range l.Y {
			if math.IsNaN(v) || p.LogY && v < MinLog {
				continue
			}
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if math.IsInf(lo, 0) { // no data
		lo, hi = 0, 1
		if p.LogY {
			lo, hi = 1, 10
		}
	}
	if p.YMin != nil {
		lo = *p.YMin
	}
	if p.YMax != nil {
		hi = *p.YMax
	}
	if hi < lo { // data entirely beyond a fixed end
		switch {
		case p.LogY && p.YMin != nil:
			hi = lo * 10
		case p.LogY:
			lo = hi / 10
		case p.YMin != nil:
			hi = lo + math.Max(math.Abs(lo), 1)
		default:
			lo = hi - math.Max(math.Abs(hi), 1)
		}
	}
	var nlo, nhi float64
	if p.LogY {
		nlo, nhi = niceLogRange(lo, hi)
	} else {
		nlo, nhi = niceRange(lo, hi, target)
	}
	if p.YMin == nil {
		lo = nlo
	}
	if p.YMax == nil {
		hi = nhi
	}
	return lo, hi
}

// newPlot returns a gonum plot styled for the theme: no title, no axis
// labels (drawn by the layout so they line up), no padding.
func newPlot(th *theme) *plot.Plot {
	p := plot.New()
	p.BackgroundColor = nil
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.LineStyle = draw.LineStyle{Color: axisColor, Width: th.axisWidth}
		a.Padding = 0
		a.Tick.LineStyle = draw.LineStyle{Color: axisColor, Width: th.axisWidth}
		a.Tick.Length = vg.Length(5 * th.scale)
		a.Tick.Label = th.tick
	}
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XCenter, draw.YTop
	p.Y.Tick.Label.XAlign, p.Y.Tick.Label.YAlign = draw.XRight, draw.YCenter
	return p
}

func newLegend(th *theme) plot.Legend {
	l := plot.NewLegend()
	l.TextStyle = th.legend
	l.Top, l.Left = true, true
	l.ThumbnailWidth = vg.Length(28 * th.scale)
	l.Padding = vg.Length(3 * th.scale)
	l.YPosition = draw.PosCenter
	return l
}

// legendHeight is the height of l's entries.
func legendHeight(l *plot.Legend) vg.Length {
	var c draw.Canvas
	r := l.Rectangle(c)
	return r.Max.Y - r.Min.Y
}

// shareHeights splits total among panels: equal shares, except that a
// panel whose legend needs more gets that much and the others share the
// rest (water-filling). If the needs alone exceed total, the shares are
// equal and the tallest legends overflow their panels.
func shareHeights(total vg.Length, needs []vg.Length) []vg.Length {
	out := make([]vg.Length, len(needs))
	big := make([]bool, len(needs))
	for range needs { // each pass fixes at least one more panel, or stops
		rest, n := total, 0
		for i, nd := range needs {
			if big[i] {
				rest -= nd
			} else {
				n++
			}
		}
		if n == 0 || rest <= 0 {
			break
		}
		share, changed := rest/vg.Length(n), false
		for i, nd := range needs {
			if !big[i] && nd > share {
				big[i], changed = true, true
			}
		}
		if !changed {
			for i, nd := range needs {
				out[i] = share
				if big[i] {
					out[i] = nd
				}
			}
			return out
		}
	}
	for i := range out {
		out[i] = total / vg.Length(len(needs))
	}
	return out
}

// legendWidth is the width of l's widest entry.
func legendWidth(l *plot.Legend) vg.Length {
	var c draw.Canvas
	r := l.Rectangle(c)
	return r.Max.X - r.Min.X
}

// newStrip builds the state strip under panel pn.
func newStrip(th *theme, pn *Panel, xlo, xhi float64, xTarget int, spans []Span) *item {
	label := pn.StatesLabel
	if label == "" {
		label = DefaultStatesLabel
	}
	it := &item{p: newPlot(th), legend: newLegend(th), ylabel: label, strip: true}
	p := it.p
	p.X.Min, p.X.Max = xlo, xhi
	p.X.Tick.Marker = linearTicks{target: xTarget}
	p.Y.Min, p.Y.Max = 0, 1
	p.Y.Tick.Marker = plot.ConstantTicks(nil)
	it.legend.TextStyle = th.small
	it.legend.ThumbnailWidth = vg.Length(16 * th.scale)
	it.legend.Padding = vg.Length(1.5 * th.scale)

	// Fixed colours for the breaker states; other states take, in order of
	// first appearance, the palette colours the fixed ones do not use.
	others := []color.RGBA{okabeIto[0], okabeIto[3], okabeIto[5], okabeIto[6], okabeIto[4]}
	var seen []string
	var extra []string
	colour := func(s string) color.RGBA {
		if c, ok := fixedStateColour(s); ok {
			return c
		}
		for i, e := range extra {
			if e == s {
				return others[i%len(others)]
			}
		}
		extra = append(extra, s)
		return others[(len(extra)-1)%len(others)]
	}
	for _, b := range pn.States {
		found := false
		for _, s := range seen {
			found = found || s == b.State
		}
		if !found {
			seen = append(seen, b.State)
			it.legend.Add(b.State, swatch{fill: colour(b.State)})
		}
	}
	if len(spans) > 0 {
		p.Add(spanPlotter{spans: spans})
	}
	p.Add(statePlotter{bands: pn.States, colour: colour, text: th.small, pad: th.gap / 2, minW: vg.Length(5 * th.scale)})
	// Tall enough for its legend, at least two lines of text.
	it.dataH = max(2*th.small.Height("Mg"), legendHeight(&it.legend))
	return it
}

// drawTitle writes the title and subtitle from the top-left corner (x,
// top) and returns the y below them.
func drawTitle(dc draw.Canvas, th *theme, title, subtitle string, x, top vg.Length) vg.Length {
	for _, t := range []struct {
		s   string
		sty text.Style
	}{{title, th.title}, {subtitle, th.subtitle}} {
		if t.s == "" {
			continue
		}
		sty := t.sty
		sty.YAlign = draw.YTop
		// A line wider than the figure shrinks to fit, down to 70 %.
		if w, room := sty.Width(t.s), dc.Max.X-x-(x-dc.Min.X); w > room && room > 0 {
			sty.Font.Size *= vg.Length(max(0.7, float64(room/w)))
		}
		dc.FillText(sty, vg.Point{X: x, Y: top}, t.s)
		top -= sty.Height(t.s) + th.gap/2
	}
	return top - th.gap/2
}

// drawSpanLane shades the fault windows in the label lane [bot, top] above
// the first panel, so each label sits on its window, and writes the labels.
func drawSpanLane(dc draw.Canvas, spans []Span, labels []spanLabel, sty text.Style, left, right vg.Length, xlo, xhi float64, top, bot, rowH vg.Length) {
	if len(labels) == 0 {
		return
	}
	xOf := func(v float64) vg.Length {
		return left + vg.Length((math.Max(xlo, math.Min(xhi, v))-xlo)/(xhi-xlo))*(right-left)
	}
	dc.SetColor(spanFill)
	for _, sp := range spans {
		x0, x1 := xOf(sp.From), xOf(sp.To)
		if x1-x0 < 1 {
			x1 = x0 + 1
		}
		dc.Fill(vg.Rectangle{Min: vg.Point{X: x0, Y: bot}, Max: vg.Point{X: x1, Y: top}}.Path())
	}
	sty.YAlign = draw.YBottom
	descent := sty.FontExtents().Descent
	for _, l := range labels {
		sty.Color = spanText
		if l.mark {
			sty.Color = markColor
		}
		dc.FillText(sty, vg.Point{X: l.x, Y: bot + vg.Length(l.row)*rowH + descent}, l.text)
	}
}

// markStyle is the line of a Mark: dark grey, long dashes.
func markStyle(th *theme) draw.LineStyle {
	u := vg.Length(th.scale)
	return draw.LineStyle{Color: markColor, Width: th.lineWidth * 0.75, Dashes: []vg.Length{6 * u, 4 * u}}
}

// dashes is the dash pattern of a panel's line li: solid for the first,
// then long dashes, dots and dash-dots in turn; Dashed asks for dashes
// even on the first.
func dashes(th *theme, li int, dashed bool) []vg.Length {
	u := vg.Length(th.scale)
	patterns := [][]vg.Length{nil, {9 * u, 4 * u}, {2 * u, 3 * u}, {9 * u, 3 * u, 2 * u, 3 * u}}
	k := li % len(patterns)
	if dashed && k == 0 {
		k = 1
	}
	return patterns[k]
}

// isFlat reports whether a series has one value throughout (gaps aside).
func isFlat(y []float64) bool {
	first := math.NaN()
	for _, v := range y {
		switch {
		case math.IsNaN(v):
		case math.IsNaN(first):
			first = v
		case v != first:
			return false
		}
	}
	return true
}

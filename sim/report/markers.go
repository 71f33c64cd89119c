package report

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Marker marks an instant on a panel's time axis: a thin vertical rule
// across the panel with a glyph at its top (a breaker's probe, an
// instance ejected or turned unready). Markers with the same Label share
// a glyph and a colour and one legend entry.
type Marker struct {
	// At is the instant, in seconds of simulated time.
	At float64
	// Label is the legend entry, e.g. "probe failed" or "api ejected".
	Label string
	// Tone says whether the mark is bad news (vermillion and purple
	// crosses and triangles), good news (green and blue circles) or
	// neither (black and orange squares).
	Tone Tone
}

// Tone is the sense of a Marker.
type Tone uint8

const (
	// Neutral: neither good nor bad.
	Neutral Tone = iota
	// Bad: a failure, a removal ("probe failed", "api ejected").
	Bad
	// Good: a success, a return ("probe passed", "api ready again").
	Good
)

// markerStyles hands out a glyph and a colour per marker label, in order
// of first appearance over the whole figure within its Tone, so that a
// label keeps its look in every panel. Colours are Okabe-Ito and the
// shapes differ by tone and label, so that marks stay apart without
// colour.
type markerStyles struct {
	labels [3][]string // per tone
	radius vg.Length
}

var (
	markerColours = [3][]color.RGBA{
		Neutral: {okabeIto[6], okabeIto[4]},
		Bad:     {okabeIto[1], okabeIto[3]},
		Good:    {okabeIto[2], okabeIto[0]},
	}
	markerShapes = [3][]draw.GlyphDrawer{
		Neutral: {draw.BoxGlyph{}, boldCross{plus: true}, draw.RingGlyph{}},
		Bad:     {boldCross{}, draw.PyramidGlyph{}, draw.BoxGlyph{}},
		Good:    {draw.CircleGlyph{}, draw.RingGlyph{}, boldCross{plus: true}},
	}
)

func (s *markerStyles) style(m Marker) draw.GlyphStyle {
	t := min(m.Tone, Good)
	k := -1
	for i, l := range s.labels[t] {
		if l == m.Label {
			k = i
		}
	}
	if k < 0 {
		k = len(s.labels[t])
		s.labels[t] = append(s.labels[t], m.Label)
	}
	cs, sh := markerColours[t], markerShapes[t]
	return draw.GlyphStyle{Color: cs[k%len(cs)], Radius: s.radius, Shape: sh[(k/len(cs)+k)%len(sh)]}
}

// markerPlotter draws a panel's markers; markers that fall on the same
// few pixels stack their glyphs downwards, so that each stays visible.
type markerPlotter struct {
	markers []Marker
	styles  []draw.GlyphStyle // per marker
	width   vg.Length
}

func (m markerPlotter) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	type slot struct {
		x vg.Length
		n int
	}
	var used []slot
	for i, mk := range m.markers {
		x := trX(mk.At)
		if x < c.Min.X-1 || x > c.Max.X+1 {
			continue
		}
		gs := m.styles[i]
		rule := draw.LineStyle{Color: withAlpha(gs.Color, 0x70), Width: m.width, Dashes: []vg.Length{3 * m.width, 2 * m.width}}
		c.StrokeLine2(rule, x, c.Min.Y, x, c.Max.Y)
		row := 0
		for j := range used {
			if math.Abs(float64(used[j].x-x)) < float64(gs.Radius) {
				used[j].n++
				row = used[j].n
				break
			}
		}
		if row == 0 {
			used = append(used, slot{x: x})
		}
		y := c.Max.Y - gs.Radius*vg.Length(1+2.4*float64(row))
		c.DrawGlyph(gs, vg.Point{X: x, Y: y})
	}
}

// glyphThumb is a marker's legend thumbnail.
type glyphThumb struct{ style draw.GlyphStyle }

func (g glyphThumb) Thumbnail(c *draw.Canvas) { c.DrawGlyph(g.style, c.Center()) }

// withAlpha returns opaque colour c at opacity a (premultiplied, as
// color.RGBA is).
func withAlpha(c color.Color, a uint8) color.RGBA {
	r, g, b, _ := c.RGBA() // 16-bit channels
	k := float64(a) / 255
	ch := func(v uint32) uint8 { return uint8(float64(v>>8) * k) }
	return color.RGBA{ch(r), ch(g), ch(b), a}
}

// addMarkers adds a panel's markers to its plot and its legend.
func addMarkers(it *item, pn *Panel, styles *markerStyles, th *theme) {
	if len(pn.Markers) == 0 {
		return
	}
	it.markers = true
	mp := markerPlotter{markers: pn.Markers, width: th.gridWidth * 1.5}
	var seen []string
	for _, mk := range pn.Markers {
		gs := styles.style(mk)
		mp.styles = append(mp.styles, gs)
		found := false
		for _, s := range seen {
			found = found || s == mk.Label
		}
		if !found && mk.Label != "" {
			seen = append(seen, mk.Label)
			it.legend.Add(mk.Label, glyphThumb{style: gs})
		}
	}
	it.p.Add(mp)
}

// boldCross is an x (or, with plus, a +) stroked a third of its radius
// wide: gonum's CrossGlyph, half a point wide, vanishes when projected.
type boldCross struct{ plus bool }

func (b boldCross) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	ls := draw.LineStyle{Color: sty.Color, Width: r / 2.5}
	if b.plus {
		c.StrokeLine2(ls, pt.X-r, pt.Y, pt.X+r, pt.Y)
		c.StrokeLine2(ls, pt.X, pt.Y-r, pt.X, pt.Y+r)
		return
	}
	d := r * 0.8
	c.StrokeLine2(ls, pt.X-d, pt.Y-d, pt.X+d, pt.Y+d)
	c.StrokeLine2(ls, pt.X-d, pt.Y+d, pt.X+d, pt.Y-d)
}

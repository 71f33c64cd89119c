package report

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// validateOverlays checks a heatmap's marks and outline.
func (h *Heatmap) validateOverlays() error {
	for i, m := range h.Marks {
		if !finite(m.X) {
			return invalid("heatmap mark %d %q: X = %v is not finite", i, m.Label, m.X)
		}
	}
	if h.Outline == nil {
		return nil
	}
	if len(h.Outline) != len(h.Y) {
		return invalid("heatmap outline has %d rows for %d Y values", len(h.Outline), len(h.Y))
	}
	for j, row := range h.Outline {
		if len(row) != len(h.X) {
			return invalid("heatmap outline row %d has %d values for %d X values", j, len(row), len(h.X))
		}
	}
	return nil
}

// outlinePlotter draws the boundary of the set cells: white over a
// black casing, so that it reads on every colour of the scale.
type outlinePlotter struct {
	set    [][]bool
	ex, ey []float64
	width  vg.Length
}

func (o outlinePlotter) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	var segs [][2]vg.Point
	for j, row := range o.set {
		for i, in := range row {
			if !in {
				continue
			}
			x0, x1, y0, y1 := trX(o.ex[i]), trX(o.ex[i+1]), trY(o.ey[j]), trY(o.ey[j+1])
			if i > 0 && !row[i-1] {
				segs = append(segs, [2]vg.Point{{X: x0, Y: y0}, {X: x0, Y: y1}})
			}
			if i < len(row)-1 && !row[i+1] {
				segs = append(segs, [2]vg.Point{{X: x1, Y: y0}, {X: x1, Y: y1}})
			}
			if j > 0 && !o.set[j-1][i] {
				segs = append(segs, [2]vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}})
			}
			if j < len(o.set)-1 && !o.set[j+1][i] {
				segs = append(segs, [2]vg.Point{{X: x0, Y: y1}, {X: x1, Y: y1}})
			}
		}
	}
	// Each segment runs on by half the casing's width at both ends, so
	// that the corners close, but not out of the data area.
	clampX := func(x vg.Length) vg.Length { return max(c.Min.X, min(c.Max.X, x)) }
	clampY := func(y vg.Length) vg.Length { return max(c.Min.Y, min(c.Max.Y, y)) }
	for _, st := range []draw.LineStyle{{Color: color.Black, Width: 2 * o.width}, {Color: color.White, Width: o.width}} {
		ext := st.Width / 2
		for _, s := range segs {
			a, b := s[0], s[1]
			if a.X == b.X {
				c.StrokeLine2(st, a.X, clampY(min(a.Y, b.Y)-ext), b.X, clampY(max(a.Y, b.Y)+ext))
			} else {
				c.StrokeLine2(st, clampX(min(a.X, b.X)-ext), a.Y, clampX(max(a.X, b.X)+ext), b.Y)
			}
		}
	}
}

// heatMarkPlotter draws a heatmap's marks: a dashed white line over a
// black casing, and the label in a white box at the top of the data
// area, right of the line (left of it near the right edge). A mark
// beyond the cells gets no line: its label sits at that edge with an
// arrow pointing out.
type heatMarkPlotter struct {
	marks []Mark
	th    *theme
}

func (m heatMarkPlotter) Plot(c draw.Canvas, p *plot.Plot) {
	th := m.th
	trX, _ := p.Transforms(&c)
	u := vg.Length(th.scale)
	casing := draw.LineStyle{Color: color.Black, Width: 2 * th.lineWidth}
	dash := draw.LineStyle{Color: color.White, Width: th.lineWidth, Dashes: []vg.Length{6 * u, 4 * u}}
	sty := th.smallBold
	sty.YAlign = draw.YTop
	pad := th.gap / 2
	for k, mk := range m.marks {
		x, label := trX(mk.X), mk.Label
		top := c.Max.Y - pad - vg.Length(k)*(sty.Height("Mg")+pad) // one row per mark
		switch {
		case x < c.Min.X:
			x, label = c.Min.X, "← "+label
		case x > c.Max.X:
			x, label = c.Max.X, label+" →"
		default:
			c.StrokeLine2(casing, x, c.Min.Y, x, c.Max.Y)
			c.StrokeLine2(dash, x, c.Min.Y, x, c.Max.Y)
		}
		w := sty.Width(label)
		lx := x + pad
		if lx+w+pad > c.Max.X {
			lx = x - pad - w
		}
		lx = max(c.Min.X+pad, lx)
		box := vg.Rectangle{Min: vg.Point{X: lx - pad/2, Y: top - sty.Height(label) - pad/4}, Max: vg.Point{X: lx + w + pad/2, Y: top + pad/4}}
		c.SetColor(color.White)
		c.Fill(box.Path())
		c.FillText(sty, vg.Point{X: lx, Y: top}, label)
	}
}

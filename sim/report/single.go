package report

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// sideColumn is what a single-plot figure shows to the right of its data
// area: a legend, or a heatmap's colour bar.
type sideColumn struct {
	width vg.Length
	draw  func(c draw.Canvas) // c spans the column beside the data area
}

// drawSingle lays out one plot with a title block, a rotated y label on the
// left, an x label below and a side column on the right.
func drawSingle(dc draw.Canvas, th *theme, title, subtitle, xlabel, ylabel string, p *plot.Plot, side sideColumn) error {
	margin := 1.5 * th.gap
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	top := drawTitle(dc, th, title, subtitle, dc.Min.X+margin, dc.Max.Y-margin)

	area := dc.Rectangle
	area.Max.Y = top - th.gap
	area.Min.Y += margin
	if xlabel != "" {
		area.Min.Y += th.label.Height(xlabel) + th.gap/2
	}
	area.Min.X += margin
	ylabelW := vg.Length(0)
	if ylabel != "" {
		ylabelW = th.label.Height(ylabel) + th.gap/2
	}
	area.Min.X += ylabelW
	area.Max.X -= margin
	if side.width > 0 {
		area.Max.X -= side.width + 1.5*th.gap
	}
	if area.Max.X-area.Min.X < 50 || area.Max.Y-area.Min.Y < 50 {
		return fmt.Errorf("figure %q: too small for its labels", title)
	}
	c := draw.Canvas{Canvas: dc.Canvas, Rectangle: area}
	d := p.DataCanvas(c)
	p.Draw(c)
	if ylabel != "" {
		sty := th.label
		sty.Rotation = math.Pi / 2
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YBottom
		x := area.Min.X - ylabelW + th.label.Height(ylabel) - sty.FontExtents().Descent
		dc.FillText(sty, vg.Point{X: x, Y: (d.Min.Y + d.Max.Y) / 2}, ylabel)
	}
	if xlabel != "" {
		sty := th.label
		sty.XAlign = draw.XCenter
		dc.FillText(sty, vg.Point{X: (d.Min.X + d.Max.X) / 2, Y: dc.Min.Y + margin + sty.FontExtents().Descent}, xlabel)
	}
	if side.width > 0 {
		side.draw(draw.Canvas{Canvas: dc.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: area.Max.X + 1.5*th.gap, Y: d.Min.Y},
			Max: vg.Point{X: area.Max.X + 1.5*th.gap + side.width, Y: d.Max.Y},
		}})
	}
	return nil
}

// categoryTicks labels integer positions 0..n-1 with names.
func categoryTicks(names []string) plot.ConstantTicks {
	t := make(plot.ConstantTicks, len(names))
	for i, n := range names {
		t[i] = plot.Tick{Value: float64(i), Label: n}
	}
	return t
}

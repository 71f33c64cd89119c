package report

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// figureLayout carries one figure through its steps: build the items,
// measure them, share the height among them, draw them.
type figureLayout struct {
	dc       draw.Canvas
	f        *Figure
	wpx, hpx int
	th       theme
	xlo, xhi float64
	xlabel   string
	margin   vg.Length
	area     vg.Rectangle // the frame that holds the stacked plots
	xTarget  int
	markers  markerStyles // one look per marker label, over the figure
	items    []*item
	ylabelW  vg.Length // room for the rotated y labels
	legendW  vg.Length // width of the legend column

	// measured
	left, right  vg.Length // room every data area leaves on each side
	fixed        vg.Length // height that is not data area
	panels       int
	dataL, dataR vg.Length
	labelH, lane vg.Length // fault label row height and lane height
	labels       []spanLabel
	heights      []vg.Length // data heights of the panels, top to bottom
}

// drawFigure lays out and draws f on dc. It returns the data area of every
// plot, top to bottom (panels and state strips), for tests.
func drawFigure(dc draw.Canvas, f *Figure, wpx, hpx int) (areas []vg.Rectangle, err error) {
	raster := false
	switch dc.Canvas.(type) {
	case *vgimg.Canvas, *rasterCanvas:
		raster = true
	}
	l := &figureLayout{dc: dc, f: f, wpx: wpx, hpx: hpx, th: newTheme(wpx, hpx, raster)}
	l.xlo, l.xhi = f.xRange()
	l.xlabel = f.XLabel
	if l.xlabel == "" {
		l.xlabel = DefaultXLabel
	}
	l.margin = 1.5 * l.th.gap
	l.markers.radius = vg.Length(4.5 * l.th.scale)

	// Background and the title block. renderImage's image is white
	// already (vgimg.NewWith paints it with its default white background,
	// draw.Src), and white over white is white: painting it again through
	// gg's rasterizer, a million pixels, would change no byte.
	dc.SetColor(color.White)
	if _, white := dc.Canvas.(*rasterCanvas); !white {
		dc.Fill(dc.Rectangle.Path())
	}
	top := dc.Max.Y - l.margin
	top = drawTitle(dc, &l.th, f.Title, f.Subtitle, dc.Min.X+l.margin, top)

	// The frame that holds the stacked plots, before the side columns.
	l.area = dc.Rectangle
	l.area.Max.Y = top
	l.area.Min.Y += l.margin + l.th.label.Height(l.xlabel) + l.th.gap/2
	l.area.Min.X += l.margin
	l.area.Max.X -= l.margin

	l.buildItems()
	if err := l.fitColumns(); err != nil {
		return nil, err
	}
	l.measure()
	if err := l.shareHeights(); err != nil {
		return nil, err
	}
	areas = l.draw()

	// The shared x label, centred under the data areas.
	sty := l.th.label
	sty.XAlign = draw.XCenter
	dc.FillText(sty, vg.Point{X: (l.area.Min.X + l.left + l.area.Max.X - l.right) / 2, Y: dc.Min.Y + l.margin + sty.FontExtents().Descent}, l.xlabel)
	return areas, nil
}

// buildItems makes a plot and a legend for every panel, and a strip under
// every panel with states.
func (l *figureLayout) buildItems() {
	th, f, area := &l.th, l.f, l.area
	colours := lineColours(f.Panels)
	l.xTarget = max(3, min(12, int(float64(area.Max.X-area.Min.X)/(7*float64(th.tick.Font.Size)))))
	estH := (area.Max.Y - area.Min.Y) / vg.Length(len(f.Panels))
	yTarget := max(2, min(6, int(float64(estH)/(3.2*float64(th.tick.Font.Size)))))
	for pi := range f.Panels {
		pn := &f.Panels[pi]
		l.items = append(l.items, l.panelItem(pn, colours[pi], yTarget))
		if pn.YLabel != "" {
			l.ylabelW = th.label.Height(pn.YLabel) + th.gap/2
		}
		if len(pn.States) > 0 {
			l.items = append(l.items, newStrip(th, pn, l.xlo, l.xhi, l.xTarget, f.Spans))
		}
	}
	last := l.items[len(l.items)-1]
	last.p.X.Tick.Marker = linearTicks{target: l.xTarget, labels: true}
}

// panelItem builds one panel's plot and legend.
func (l *figureLayout) panelItem(pn *Panel, colours []color.RGBA, yTarget int) *item {
	th := &l.th
	it := &item{p: newPlot(th), legend: newLegend(th), title: pn.Title, ylabel: pn.YLabel}
	p := it.p
	p.X.Min, p.X.Max = l.xlo, l.xhi
	p.X.Tick.Marker = linearTicks{target: l.xTarget}
	p.Y.Min, p.Y.Max = pn.yRange(yTarget)
	if pn.LogY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = logTicks{labels: true}
	} else {
		p.Y.Tick.Marker = linearTicks{target: yTarget, labels: true}
	}
	if len(l.f.Spans) > 0 {
		p.Add(spanPlotter{spans: l.f.Spans})
	}
	p.Add(gridPlotter{style: draw.LineStyle{Color: gridColor, Width: th.gridWidth}, vertical: true, horiz: true})
	if len(l.f.Marks) > 0 {
		p.Add(markPlotter{marks: l.f.Marks, style: markStyle(th)})
	}
	// Every line of a panel gets its own colour and its own dash
	// pattern, so that two lines on top of each other stay apart; thin
	// lines (replications behind a mean) go under the others, and flat
	// lines (a series stuck at zero, say) are drawn last, on top, so
	// that a line that moves cannot hide them. A line that a later one
	// covers gets a band under every line where it is covered (bands).
	var thin, moving, flat []plot.Plotter
	under := bands(pn, p.Y.Min, p.Y.Max)
	k := 0 // index among the lines that are not thin, for the dashes
	for li, ln := range pn.Lines {
		lp := &linePlotter{x: ln.X, y: ln.Y, logY: pn.LogY, chunk: th.raster, points: ln.Points,
			style: draw.LineStyle{Color: colours[li], Width: th.lineWidth, Dashes: dashes(th, k, ln.Dashed)}}
		if under[li] != nil && !ln.Thin {
			band := restyled(lp, colours[li], underAlpha, th.lineWidth*underWidth)
			band.y = under[li]
			thin = append(thin, band)
		}
		switch {
		case ln.Thin:
			thin = append(thin, restyled(lp, colours[li], thinAlpha, th.lineWidth*thinWidth))
			continue
		case isFlat(ln.Y):
			flat = append(flat, lp)
		default:
			moving = append(moving, lp)
		}
		k++
		if ln.Label != "" {
			it.legend.Add(ln.Label, lp)
			lx, ly := lastPoint(ln.X, ln.Y, pn.LogY)
			it.direct = append(it.direct, directLabel{text: ln.Label, style: lp.style, x: lx, y: ly})
		}
	}
	p.Add(thin...)
	p.Add(moving...)
	p.Add(flat...)
	addMarkers(it, pn, &l.markers, th)
	return it
}

// restyled is a copy of lp drawn solid in colour c at opacity alpha, w
// wide: a thin replication line, or the band under a covered line.
func restyled(lp *linePlotter, c color.RGBA, alpha uint8, w vg.Length) *linePlotter {
	cp := *lp
	cp.style = draw.LineStyle{Color: color.NRGBA{R: c.R, G: c.G, B: c.B, A: alpha}, Width: w}
	return &cp
}

// fitColumns narrows the frame by the y label column and the legend
// column, as wide as the widest legend.
func (l *figureLayout) fitColumns() error {
	for _, it := range l.items {
		l.legendW = max(l.legendW, legendWidth(&it.legend))
	}
	if l.legendW > 0 {
		l.legendW += l.th.gap * 1.5
	}
	l.area.Min.X += l.ylabelW
	l.area.Max.X -= l.legendW
	if l.area.Max.X-l.area.Min.X < 50 {
		return fmt.Errorf("figure %q: %d x %d px leaves no room for the data (legend %.0f pt wide)", l.f.Title, l.wpx, l.hpx, float64(l.legendW))
	}
	return nil
}

// measure finds the room each plot needs around its data area, measured
// on the full frame, and places the fault labels in a lane above the
// first panel.
func (l *figureLayout) measure() {
	th, area := &l.th, l.area
	trial := draw.Canvas{Canvas: l.dc.Canvas, Rectangle: area}
	for i, it := range l.items {
		d := it.p.DataCanvas(trial)
		it.left, it.right = d.Min.X-area.Min.X, area.Max.X-d.Max.X
		it.bottom = d.Min.Y - area.Min.Y + (area.Max.Y - d.Max.Y)
		it.need = it.left
		if it.strip {
			it.need = max(it.left, th.small.Width(it.ylabel)+th.gap)
			it.top = th.gap / 2
			l.fixed += it.dataH
		} else {
			l.panels++
			if i > 0 {
				it.top = 1.5 * th.gap
			}
			if it.title != "" {
				it.top += th.panel.Height(it.title) + th.gap/2
			}
		}
		l.left, l.right = max(l.left, it.need), max(l.right, it.right)
		l.fixed += it.top + it.bottom
	}
	// Fault labels go in a lane above the first panel.
	l.dataL, l.dataR = area.Min.X+l.left, area.Max.X-l.right
	l.labelH = th.small.Height("Mg")
	var rows int
	l.labels, rows = placeSpanLabels(laneItems(l.f.Spans, l.f.Marks), th.small, l.dataL, l.dataR, l.xlo, l.xhi, th.gap)
	l.lane = vg.Length(rows) * l.labelH
	if rows > 0 {
		l.lane += th.gap / 4
	}
	l.items[0].top += l.lane
	l.fixed += l.lane
}

// shareHeights shares the height left among the panels.
func (l *figureLayout) shareHeights() error {
	var needs []vg.Length
	for _, it := range l.items {
		if !it.strip {
			needs = append(needs, legendHeight(&it.legend))
		}
	}
	l.heights = shareHeights(l.area.Max.Y-l.area.Min.Y-l.fixed, needs)
	for _, h := range l.heights {
		if h < 20 {
			return fmt.Errorf("figure %q: %d x %d px is too small for %d panels", l.f.Title, l.wpx, l.hpx, l.panels)
		}
	}
	return nil
}

// draw draws the items top to bottom; every data area spans
// [dataL, dataR]. It returns the data areas.
func (l *figureLayout) draw() (areas []vg.Rectangle) {
	heights := l.heights
	y := l.area.Max.Y
	for i, it := range l.items {
		if !it.strip {
			it.dataH, heights = heights[0], heights[1:]
			it.useDirect = fitsDirect(it)
			if need := legendHeight(&it.legend); !it.useDirect && need > it.dataH+it.bottom {
				// Shrink a legend that cannot fit beside its panel.
				k := max(0.6, float64((it.dataH+it.bottom)/need))
				it.legend.TextStyle.Font.Size *= vg.Length(k)
				it.legend.Padding *= vg.Length(k)
			}
		}
		dataTop := y - it.top
		if i == 0 {
			dataTop += l.lane
			drawSpanLane(l.dc, l.f.Spans, l.labels, l.th.small, l.dataL, l.dataR, l.xlo, l.xhi, dataTop, dataTop-l.lane, l.labelH)
			dataTop -= l.lane
		}
		dataBot := dataTop - it.dataH
		l.drawItem(i, it, dataTop, dataBot)
		areas = append(areas, vg.Rectangle{Min: vg.Point{X: l.dataL, Y: dataBot}, Max: vg.Point{X: l.dataR, Y: dataTop}})
		y = dataBot - it.bottom
	}
	return areas
}

// drawItem draws item i, whose data area spans [dataBot, dataTop], with
// its title, its y label and its legend.
func (l *figureLayout) drawItem(i int, it *item, dataTop, dataBot vg.Length) {
	th, area := &l.th, l.area
	c := draw.Canvas{Canvas: l.dc.Canvas, Rectangle: vg.Rectangle{
		Min: vg.Point{X: area.Min.X + l.left - it.left, Y: dataBot - it.bottom},
		Max: vg.Point{X: area.Max.X - l.right + it.right, Y: dataTop},
	}}
	it.p.Draw(c)
	if it.title != "" {
		sty := th.panel
		above := th.gap / 2
		if i == 0 {
			above += l.lane
		}
		c.FillText(sty, vg.Point{X: l.dataL, Y: dataTop + above + sty.FontExtents().Descent}, it.title)
	}
	mid := (dataTop + dataBot) / 2
	switch {
	case it.strip:
		sty := th.small
		sty.XAlign, sty.YAlign = draw.XRight, draw.YCenter
		c.FillText(sty, vg.Point{X: l.dataL - th.gap/2, Y: mid}, it.ylabel)
	case it.ylabel != "":
		sty := th.label
		sty.Rotation = math.Pi / 2
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YBottom
		x := area.Min.X - l.ylabelW + th.label.Height(it.ylabel) - sty.FontExtents().Descent
		c.FillText(sty, vg.Point{X: x, Y: mid}, it.ylabel)
	}
	lc := draw.Canvas{Canvas: l.dc.Canvas, Rectangle: vg.Rectangle{
		Min: vg.Point{X: area.Max.X + th.gap*1.5, Y: dataBot},
		Max: vg.Point{X: l.dc.Max.X - l.margin, Y: dataTop},
	}}
	if it.useDirect {
		d := it.p.DataCanvas(c)
		_, trY := it.p.Transforms(&d)
		it.drawDirect(lc, l.dataR, trY)
		return
	}
	it.legend.Draw(lc)
}

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

// BarChart compares a few variants over a few groups: bars side by side in
// each group, one colour per series, with optional error whiskers (for
// example a 95 % confidence interval over replications). The zero values of
// Width and Height select DefaultWidth and DefaultHeight.
type BarChart struct {
	// Title names the comparison; Subtitle is an optional second line.
	Title, Subtitle string
	// YLabel labels the value axis with its unit; XLabel, optional,
	// names what the groups are.
	YLabel, XLabel string
	// Groups name the clusters of bars along the x axis, left to right.
	// A name may hold "\n" to break a long name.
	Groups []string
	// Series are the bars of each group, left to right, and the legend.
	Series []BarSeries
	// YMax fixes the top of the value axis; nil means from the data. The
	// axis always includes zero.
	YMax *float64
	// Classes, if not nil, hold one class per group (a variant's
	// verdict, say): the group's bars take the class's colour instead
	// of their series', and the legend names the classes, in order of
	// first appearance, instead of the series. Good classes are green,
	// Bad ones vermillion, Neutral ones blue, orange, then sky blue in
	// order of first appearance.
	Classes []BarClass
	// Width and Height are the output size in pixels; see Figure.
	Width, Height int
}

// BarClass is what a group of bars is, for its colour: "recovered"
// (Good), "stays locked in" (Bad), "no fault" (Neutral).
type BarClass struct {
	Label string
	Tone  Tone
}

// BarSeries is one variant: a value per group and, optionally, the ends
// of an error whisker per group.
type BarSeries struct {
	// Label is the legend entry.
	Label string
	// Values has one value per group; NaN leaves the slot empty.
	Values []float64
	// Lo and Hi, if not nil, hold the lower and upper whisker ends per
	// group, in the units of Values (not offsets). NaN omits a whisker.
	Lo, Hi []float64
}

// Validate reports the first problem that would stop b from rendering.
// The error wraps ErrInvalid.
func (b *BarChart) Validate() error {
	if _, _, err := size(b.Width, b.Height); err != nil {
		return err
	}
	if len(b.Groups) == 0 || len(b.Series) == 0 {
		return invalid("bar chart needs at least one group and one series")
	}
	if b.YMax != nil && !(*b.YMax > 0 && finite(*b.YMax)) {
		return invalid("bar chart YMax %v must be > 0", *b.YMax)
	}
	n := len(b.Groups)
	if b.Classes != nil && len(b.Classes) != n {
		return invalid("bar chart has %d classes for %d groups", len(b.Classes), n)
	}
	for i, s := range b.Series {
		if len(s.Values) != n || s.Lo != nil && len(s.Lo) != n || s.Hi != nil && len(s.Hi) != n {
			return invalid("series %d %q: Values, Lo and Hi need one entry per group (%d)", i, s.Label, n)
		}
		if (s.Lo == nil) != (s.Hi == nil) {
			return invalid("series %d %q: set both Lo and Hi, or neither", i, s.Label)
		}
		for g := range n {
			if !gapOrFinite(s.Values[g]) {
				return invalid("series %d %q: value %d is infinite or beyond MaxAbs", i, s.Label, g)
			}
			if s.Lo != nil {
				lo, hi := s.Lo[g], s.Hi[g]
				if !gapOrFinite(lo) || !gapOrFinite(hi) || lo > hi {
					return invalid("series %d %q: whisker %d [%v, %v] is not a finite interval", i, s.Label, g, lo, hi)
				}
			}
		}
	}
	return nil
}

// RenderPNG draws b as a PNG image and writes it to w. See RenderPNG.
func (b BarChart) RenderPNG(w io.Writer) error { return renderPNG(w, &b, nil) }

// RenderSVG draws b as an SVG document and writes it to w. See RenderSVG.
func (b BarChart) RenderSVG(w io.Writer) error { return renderSVG(w, &b, nil) }

// WriteFile renders b to path (.png or .svg), atomically. See WriteFile.
func (b BarChart) WriteFile(path string) error { return writeFile(path, &b, nil) }

func (b *BarChart) dims() (int, int, error) { return size(b.Width, b.Height) }
func (b *BarChart) name() string            { return b.Title }

func (b *BarChart) draw(dc draw.Canvas, wpx, hpx int) error {
	th := newTheme(wpx, hpx, false)
	p := newPlot(&th)
	n := len(b.Groups)
	p.X.Min, p.X.Max = -0.5, float64(n)-0.5
	p.X.Tick.Marker = categoryTicks(b.Groups)
	p.X.Tick.Label = th.label
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XCenter, draw.YTop
	p.X.Tick.Length = 0

	lo, hi := 0.0, 0.0
	for _, s := range b.Series {
		for g, v := range s.Values {
			if !math.IsNaN(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
			if s.Lo != nil && !math.IsNaN(s.Lo[g]) && !math.IsNaN(s.Hi[g]) {
				lo, hi = math.Min(lo, s.Lo[g]), math.Max(hi, s.Hi[g])
			}
		}
	}
	yTarget := max(3, min(8, int(float64(px(hpx))/(5*float64(th.tick.Font.Size)))))
	p.Y.Min, p.Y.Max = niceRange(lo, hi, yTarget)
	if b.YMax != nil {
		p.Y.Max = *b.YMax
	}
	p.Y.Tick.Marker = linearTicks{target: yTarget, labels: true}
	p.Add(gridPlotter{style: draw.LineStyle{Color: gridColor, Width: th.gridWidth}, horiz: true})

	legend := newLegend(&th)
	bp := &barPlotter{chart: b, whisker: draw.LineStyle{Color: color.Black, Width: vg.Length(1.5 * th.scale)}, value: th.small}
	for i, s := range b.Series {
		col := okabeIto[i%len(okabeIto)]
		bp.colours = append(bp.colours, col)
		if b.Classes == nil {
			legend.Add(s.Label, swatch{fill: col})
		}
	}
	if b.Classes != nil {
		bp.addClasses(b.Classes, &legend)
	}
	p.Add(bp)
	side := sideColumn{width: legendWidth(&legend), draw: func(c draw.Canvas) { legend.Draw(c) }}
	return drawSingle(dc, &th, b.Title, b.Subtitle, b.XLabel, b.YLabel, p, side)
}

// barPlotter draws the bars and whiskers of a BarChart. Each group takes
// 80 % of its slot; each bar 80 % of its share, so bars of a group stand
// slightly apart.
type barPlotter struct {
	chart   *BarChart
	colours []color.RGBA
	whisker draw.LineStyle
	value   text.Style // the value written above each bar
	// class is each group's index in classColours, when the chart has
	// classes.
	class        []int
	classColours []color.RGBA
}

// addClasses gives each group its class's colour, and names the classes
// in the legend in order of first appearance.
func (bp *barPlotter) addClasses(classes []BarClass, legend *plot.Legend) {
	var labels []string
	var neutral int
	for _, c := range classes {
		if contains(labels, c.Label) {
			continue
		}
		col := classColour(c.Tone, neutral)
		if c.Tone != Good && c.Tone != Bad {
			neutral++
		}
		labels = append(labels, c.Label)
		bp.classColours = append(bp.classColours, col)
		legend.Add(c.Label, swatch{fill: col})
	}
	for _, c := range classes {
		bp.class = append(bp.class, index(labels, c.Label))
	}
}

// classColour is the colour of a bar class: Good green, Bad vermillion,
// the k-th Neutral class blue, orange, sky blue, in turn.
func classColour(t Tone, k int) color.RGBA {
	switch t {
	case Good:
		return okabeIto[2]
	case Bad:
		return okabeIto[1]
	}
	neutral := []color.RGBA{okabeIto[0], okabeIto[4], okabeIto[5]}
	return neutral[k%len(neutral)]
}

func (bp *barPlotter) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	ns := float64(len(bp.chart.Series))
	const group, bar = 0.8, 0.8
	share := group / ns
	base := trY(math.Max(p.Y.Min, math.Min(p.Y.Max, 0)))
	clampY := func(v float64) vg.Length { return trY(math.Max(p.Y.Min, math.Min(p.Y.Max, v))) }
	for si, s := range bp.chart.Series {
		for g, v := range s.Values {
			left := float64(g) - group/2 + float64(si)*share
			x0, x1 := trX(left+share*(1-bar)/2), trX(left+share*(1+bar)/2)
			top := base
			if !math.IsNaN(v) {
				y := clampY(v)
				r := vg.Rectangle{Min: vg.Point{X: x0, Y: min(base, y)}, Max: vg.Point{X: x1, Y: max(base, y)}}
				if bp.class != nil {
					c.SetColor(bp.classColours[bp.class[g]])
				} else {
					c.SetColor(bp.colours[si])
				}
				c.Fill(r.Path())
				top = max(base, y)
			}
			xm, cap := (x0+x1)/2, (x1-x0)/4
			if s.Lo != nil && !math.IsNaN(s.Lo[g]) && !math.IsNaN(s.Hi[g]) {
				ylo, yhi := clampY(s.Lo[g]), clampY(s.Hi[g])
				c.StrokeLine2(bp.whisker, xm, ylo, xm, yhi)
				c.StrokeLine2(bp.whisker, xm-cap, ylo, xm+cap, ylo)
				c.StrokeLine2(bp.whisker, xm-cap, yhi, xm+cap, yhi)
				top = max(top, yhi)
			}
			if !math.IsNaN(v) {
				// The value, zero included, so that every bar can be read
				// without the axis and a bar of height zero is still seen.
				sty := bp.value
				sty.XAlign, sty.YAlign = draw.XCenter, draw.YBottom
				c.FillText(sty, vg.Point{X: xm, Y: top + sty.FontExtents().Descent}, formatValue(v))
			}
		}
	}
}

// formatValue writes a bar's value with 3 significant digits.
func formatValue(v float64) string {
	if v == 0 {
		return "0"
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

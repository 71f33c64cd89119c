package report

import (
	"math"
	"sort"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Thin lines (Line.Thin): the alpha of their colour and their width as a
// share of a line's. 0x70 of 0xFF and 0.5 keep ten overlapping
// replications readable under the mean and one alone still visible.
const (
	thinAlpha = 0x70
	thinWidth = 0.5
)

// directLabel is a line's label, written at the right end of the panel
// at the height of the line's last value.
type directLabel struct {
	text  string
	style draw.LineStyle
	x, y  float64 // the line's last point (NaN: none)
}

// lastPoint is the last point of a line that the panel can draw: y not
// NaN, and on a log axis not below MinLog. NaNs if there is none.
func lastPoint(x, y []float64, logY bool) (float64, float64) {
	for i := len(y) - 1; i >= 0; i-- {
		if v := y[i]; !math.IsNaN(v) && (!logY || v >= MinLog) {
			return x[i], v
		}
	}
	return math.NaN(), math.NaN()
}

// directReach is how near the right end of the x axis, as a share of
// its range, every line must end for labels at the right end to name it:
// a line that stops earlier (a latency with no answers after a collapse)
// would seem to go on to its label.
const directReach = 0.05

// fitsDirect reports whether an item's lines are labelled at their ends
// rather than in a legend: it has two labelled lines or more (one line
// keeps its legend entry, which also names the panel's variant), each
// reaching the right end of the axis (within directReach), and their
// labels, stacked, fit in the height of its data area. A panel with
// markers keeps its legend, the only place that says what a marker means.
func fitsDirect(it *item) bool {
	n := len(it.direct)
	if n < 2 || it.markers {
		return false
	}
	for _, d := range it.direct {
		if !(d.x >= it.p.X.Max-directReach*(it.p.X.Max-it.p.X.Min)) {
			return false
		}
	}
	return vg.Length(n)*directRow(it) <= it.dataH
}

// directRow is the height of a direct label's row: a legend row, or the
// text's full height if that is more, so that labels never touch.
func directRow(it *item) vg.Length {
	return max(legendHeight(&it.legend)/vg.Length(max(len(it.direct), 1)), it.legend.TextStyle.Height("Mg"))
}

// placeDirect returns the centre heights of labels of height h that want
// to sit at heights want, within [lo, hi]: each as near its line's end
// as it can be without overlapping another. Labels keep the order of
// their lines' ends (top to bottom; ties in the order given). It assumes
// len(want)*h <= hi-lo; beyond that the lowest labels pass below lo.
func placeDirect(want []vg.Length, h, lo, hi vg.Length) []vg.Length {
	order := make([]int, len(want))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return want[order[a]] > want[order[b]] })
	out := make([]vg.Length, len(want))
	// Down from the top: each at most its wish, and a row below the
	// label above it.
	prev := hi + h/2
	for _, i := range order {
		out[i] = min(want[i], prev-h)
		prev = out[i]
	}
	// Up from the bottom: labels pushed below lo climb back, pushing the
	// ones above them up by as much as needed.
	floor := lo - h/2
	for k := len(order) - 1; k >= 0; k-- {
		i := order[k]
		out[i] = max(out[i], floor+h)
		floor = out[i]
	}
	return out
}

// drawDirect writes the item's labels in the column c beside the data
// area, each with a leader from the data area's right edge (x = right) at
// its line's last value (trY maps a value to a height) and a sample of
// the line's colour and dashes.
func (it *item) drawDirect(c draw.Canvas, right vg.Length, trY func(float64) vg.Length) {
	sty := it.legend.TextStyle
	rowH := directRow(it)
	want := make([]vg.Length, len(it.direct))
	for i, d := range it.direct {
		want[i] = max(c.Min.Y, min(c.Max.Y, trY(d.y)))
	}
	at := placeDirect(want, rowH, c.Min.Y, c.Max.Y)
	thumb := it.legend.ThumbnailWidth
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
	for i, d := range it.direct {
		leader := draw.LineStyle{Color: d.style.Color, Width: d.style.Width / 2}
		c.StrokeLine2(leader, right, want[i], c.Min.X, at[i])
		c.StrokeLine2(d.style, c.Min.X, at[i], c.Min.X+thumb, at[i])
		c.FillText(sty, vg.Point{X: c.Min.X + thumb + it.legend.Padding, Y: at[i]}, d.text)
	}
}

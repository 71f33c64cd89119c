package report

import "math"

// Lines that coincide. A panel's lines are drawn in order (thin ones
// first, flat ones last), each over the ones before it, so a line that
// runs on top of an earlier one hides it: "degraded" over "sent" while a
// fallback answers every request, "failed" over "sent" while everything
// fails. The renderer draws such an earlier line twice: as usual, and
// first, under every line, as a band (solid, underWidth times the line
// width, in its colour at underAlpha) that shows on both sides of the
// later line wherever that one covers it: both lines stay readable.
const (
	// coincideTol is how close two points must be, as a fraction of the
	// y axis (of its decades on a log axis), to be drawn on top of each
	// other.
	coincideTol = 0.01
	// coincideShare is the share of a line's points above the floor of
	// its axis that must lie under a later line for the line to count
	// as covered (and at least 2 points).
	coincideShare = 0.1
	// floorShare is how far above the floor of the axis, as a fraction
	// of it, a point must be to count: lines that meet at zero are not
	// hidden by each other (flat lines are drawn on top anyway).
	floorShare = 0.02
	// underWidth is how much wider a covered line is drawn, and
	// underAlpha its opacity.
	underWidth = 2.8
	underAlpha = 120
	// MinVisibleSpan is the least fraction of its axis a line must rise
	// above the floor (Top), or its values span when a change is to be
	// read (Span), to be read off a figure: below it, the line is flat
	// at the floor (of an axis scaled by another line, say).
	MinVisibleSpan = 0.1
)

// LineView is how a panel draws one of its lines, for tests that check
// that a figure shows what a question asks of it.
type LineView struct {
	// Label is the line's label.
	Label string
	// Lo and Hi are the panel's y axis ends (a nice range, as drawn at
	// the default figure size).
	Lo, Hi float64
	// Span is the fraction of the axis between the line's lowest and
	// highest drawn values (of the decades, on a log axis): 0 for a
	// flat line.
	Span float64
	// Top is how high the line's highest drawn value sits, as a
	// fraction of the axis above its floor.
	Top float64
	// Covered names a line drawn after this one that runs on top of it
	// over a stretch, "" if none.
	Covered string
	// Widened is true when the renderer draws a band under the line,
	// wider than the covering one, so that both show (see coincideTol).
	Widened bool
}

// Visible reports whether a reader can see the line: it rises at least
// MinVisibleSpan of its axis above the floor, and no line hides it.
func (v LineView) Visible() bool {
	return v.Top >= MinVisibleSpan && (v.Covered == "" || v.Widened)
}

// Moves reports whether a reader can see the line change: it is
// Visible and its values span at least MinVisibleSpan of its axis.
func (v LineView) Moves() bool { return v.Visible() && v.Span >= MinVisibleSpan }

// Views describes how p draws each of its lines, in the order of
// p.Lines (a thin line is never covered: it is drawn under the others
// anyway).
func (p Panel) Views() []LineView {
	lo, hi := p.yRange(4)
	cover := coveredBy(&p, lo, hi)
	var out []LineView
	for i, l := range p.Lines {
		v := LineView{Label: l.Label, Lo: lo, Hi: hi}
		ymin, ymax := math.Inf(1), math.Inf(-1)
		for _, y := range l.Y {
			if math.IsNaN(y) || p.LogY && y < MinLog {
				continue
			}
			ymin, ymax = math.Min(ymin, y), math.Max(ymax, y)
		}
		if !math.IsInf(ymin, 0) {
			v.Top = axisFrac(&p, ymax, lo, hi)
			v.Span = v.Top - axisFrac(&p, ymin, lo, hi)
		}
		if j := cover[i]; j >= 0 {
			v.Covered, v.Widened = p.Lines[j].Label, true
		}
		out = append(out, v)
	}
	return out
}

// axisFrac is where y sits on the axis [lo, hi], as a fraction of it,
// clamped to [0, 1].
func axisFrac(p *Panel, y, lo, hi float64) float64 {
	f := (y - lo) / (hi - lo)
	if p.LogY {
		f = (math.Log10(y) - math.Log10(lo)) / (math.Log10(hi) - math.Log10(lo))
	}
	return math.Max(0, math.Min(1, f))
}

// drawOrder is the order in which a panel draws its lines that are not
// thin: moving lines, then flat ones (see panelItem).
func drawOrder(p *Panel) []int {
	var moving, flat []int
	for i, l := range p.Lines {
		switch {
		case l.Thin:
		case isFlat(l.Y):
			flat = append(flat, i)
		default:
			moving = append(moving, i)
		}
	}
	return append(moving, flat...)
}

// coveredBy returns, for every line of p, the index of the first line
// drawn after it that covers it (see coincideTol), or -1.
func coveredBy(p *Panel, lo, hi float64) []int {
	out := make([]int, len(p.Lines))
	for i := range out {
		out[i] = -1
	}
	order := drawOrder(p)
	for a, i := range order {
		for _, j := range order[a+1:] {
			if covers(p, p.Lines[j], p.Lines[i], lo, hi) {
				out[i] = j
				break
			}
		}
	}
	return out
}

// bands returns, for every line of p that a later one covers, the values
// of the band drawn under it: the line's own where a later line runs on
// top of it (and one point either side, to join them), NaN elsewhere;
// nil for the other lines.
func bands(p *Panel, lo, hi float64) [][]float64 {
	cover := coveredBy(p, lo, hi)
	order := drawOrder(p)
	out := make([][]float64, len(p.Lines))
	for a, i := range order {
		if cover[i] < 0 {
			continue
		}
		under := p.Lines[i]
		on := make([]bool, len(under.Y))
		for _, j := range order[a+1:] {
			for k := range on {
				on[k] = on[k] || onTop(p, p.Lines[j], under, k, lo, hi)
			}
		}
		y := make([]float64, len(under.Y))
		for k := range y {
			y[k] = math.NaN()
			if on[k] || k > 0 && on[k-1] || k+1 < len(on) && on[k+1] {
				y[k] = under.Y[k]
			}
		}
		out[i] = y
	}
	return out
}

// onTop reports whether point k of under, above the floor, lies under
// top's.
func onTop(p *Panel, top, under Line, k int, lo, hi float64) bool {
	if k >= len(top.Y) || k >= len(top.X) || top.X[k] != under.X[k] {
		return false
	}
	u, t := under.Y[k], top.Y[k]
	if math.IsNaN(u) || math.IsNaN(t) || p.LogY && (u < MinLog || t < MinLog) {
		return false
	}
	fu := axisFrac(p, u, lo, hi)
	return fu > floorShare && math.Abs(fu-axisFrac(p, t, lo, hi)) <= coincideTol
}

// covers reports whether top, drawn after under, runs on top of it over
// at least coincideShare of under's points above the floor.
func covers(p *Panel, top, under Line, lo, hi float64) bool {
	n := min(len(top.Y), len(under.Y))
	above, same := 0, 0
	for k := range n {
		if k >= len(top.X) || k >= len(under.X) || top.X[k] != under.X[k] {
			continue
		}
		u, t := under.Y[k], top.Y[k]
		if math.IsNaN(u) || math.IsNaN(t) || p.LogY && (u < MinLog || t < MinLog) {
			continue
		}
		fu := axisFrac(p, u, lo, hi)
		if fu <= floorShare {
			continue
		}
		above++
		if math.Abs(fu-axisFrac(p, t, lo, hi)) <= coincideTol {
			same++
		}
	}
	return same >= 2 && float64(same) >= coincideShare*float64(above)
}

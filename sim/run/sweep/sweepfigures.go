package sweep

import (
	"fmt"
	"math"
	"strings"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/headline"
	"github.com/ressim/ressim/sim/report"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/output"
)

// figures draws the sweep: a heatmap per variant for two axes, or one
// line chart with a line per variant for one axis. When the x axis is a
// client's rate, both mark the capacity (see Capacity).
func (r *Result) figures(stats []CellStat) []output.Figure {
	if r.Sweep.Y == nil {
		f := r.lineFigure(stats)
		return []output.Figure{output.Growing("sweep-"+r.Sweep.Metric.Name()+".png", f)}
	}
	var figs []output.Figure
	for v := range r.Variants {
		h := r.phaseFigure(stats, v)
		figs = append(figs, output.ChartFigure("phase-"+r.Variants[v]+".png", h))
	}
	return figs
}

// lineFigure is the metric against the one axis, a line per variant.
func (r *Result) lineFigure(stats []CellStat) report.Figure {
	sw := r.Sweep
	f := report.Figure{
		Title:    fmt.Sprintf("%s: %s against %s", r.Name, sw.Metric.Label(), sw.X.Label),
		Subtitle: fmt.Sprintf("mean of %d replication(s) per point, seed %d", r.Replications, r.Seed),
		XLabel:   sw.X.Label,
		Panels:   []report.Panel{{Title: sw.Metric.Label(), YLabel: fmt.Sprintf("%s (%s)", sw.Metric.Label(), r.unit())}},
	}
	zero := 0.0
	f.Panels[0].YMin = &zero
	xs, categorical := axisPositions(sw.X.Numbers, len(sw.X.Values))
	if categorical {
		f.XLabel += " (values in the order of the file; see sweep.md)"
	} else {
		f.Marks = r.capacityMarks(indicesInt(len(r.Variants))...)
	}
	for _, v := range r.Variants {
		l := report.Line{Label: v, Points: true}
		for _, x := range sortedIndices(xs) {
			for _, s := range stats {
				if s.Variant == v && s.X == x {
					l.X = append(l.X, xs[x])
					l.Y = append(l.Y, s.Value)
				}
			}
		}
		f.Panels[0].Lines = append(f.Panels[0].Lines, l)
	}
	if t := curveFinding(run.MetricOf(sw.Metric), f.Panels[0].Lines); t != "" {
		f.Title = r.Name + ": " + t
	}
	return f
}

// curveFinding says, for a metric where higher is better, which variants
// collapse (end below half their peak) past the point of their peak and
// which hold: "base collapses past 1000 (0 at 2000); bounded-queue,
// adaptive-lifo hold". "" when no variant collapses, or the metric is
// not one where higher is better.
func curveFinding(m *run.MetricDef, lines []report.Line) string {
	if m == nil || !m.HigherIsBetter {
		return ""
	}
	var fell, held []string
	for _, l := range lines {
		peak, at, last, lastX := math.Inf(-1), 0.0, math.NaN(), 0.0
		for i, y := range l.Y {
			if math.IsNaN(y) {
				continue
			}
			if y > peak {
				peak, at = y, l.X[i]
			}
			last, lastX = y, l.X[i]
		}
		if peak > 0 && last < peak/2 {
			fell = append(fell, fmt.Sprintf("%s collapses past %s (%s at %s)", l.Label, fmtRate(at), fmtRate(last), fmtRate(lastX)))
		} else {
			held = append(held, l.Label)
		}
	}
	switch {
	case len(fell) == 0:
		return ""
	case len(held) == 0:
		return strings.Join(fell, "; ")
	case len(held) == 1:
		return strings.Join(fell, "; ") + "; " + held[0] + " holds"
	}
	return strings.Join(fell, "; ") + "; " + strings.Join(held, ", ") + " hold"
}

// phaseFigure is variant v's heatmap over the two axes, with the
// capacity marked and the cells locked in in at least half their
// replications outlined (when the experiment has a fault to judge).
func (r *Result) phaseFigure(stats []CellStat, v int) report.Heatmap {
	sw := r.Sweep
	name := r.Variants[v]
	// Equal cells, labelled with the values as written in the file.
	h := report.Heatmap{
		Title:    fmt.Sprintf("%s: %s (%s)", r.Name, sw.Metric.Label(), name),
		Subtitle: fmt.Sprintf("%d replication(s) per cell, seed %d", r.Replications, r.Seed),
		XLabel:   sw.X.Label, YLabel: sw.Y.Label, ZLabel: fmt.Sprintf("%s (%s)", sw.Metric.Label(), r.unit()),
		X: indices(len(sw.X.Values)), Y: indices(len(sw.Y.Values)),
		XTickLabels: valueLabels(sw.X.Values), YTickLabels: valueLabels(sw.Y.Values),
		Annotate: true,
	}
	h.Z = make([][]float64, len(sw.Y.Values))
	for y := range h.Z {
		h.Z[y] = make([]float64, len(sw.X.Values))
	}
	for _, s := range stats {
		if s.Variant == name {
			h.Z[s.Y][s.X] = s.Value
		}
	}
	if sw.Metric == headline.LockedInProbability {
		lo, hi := 0.0, 1.0
		h.ZMin, h.ZMax = &lo, &hi
	}
	if out, any := r.lockedOutline(stats, v); any {
		h.Outline = out
		h.Subtitle += "; white outline: where at least half the replications stay locked in (the verdicts' boundary)"
	}
	if increasing(sw.X.Numbers, len(sw.X.Values)) {
		for _, m := range r.capacityMarks(v) {
			m.X = cellPosition(sw.X.Numbers, m.X)
			h.Marks = append(h.Marks, m)
		}
	}
	return h
}

// lockedOutline marks variant v's cells whose first fault left at least
// half the replications locked in; any is false when no cell has a
// fault to judge.
func (r *Result) lockedOutline(stats []CellStat, v int) (out [][]bool, any bool) {
	out = make([][]bool, r.ny)
	for y := range out {
		out[y] = make([]bool, r.nx)
	}
	for _, s := range stats {
		if s.v == v && s.faulted && s.N > 0 {
			any = true
			out[s.Y][s.X] = 2*s.locked >= s.N
		}
	}
	return out, any
}

// capacityMarks are the capacity lines of variants vs: each distinct
// capacity, and each capacity with every call retried to its limit where
// retries lower it, named after the variants it belongs to unless all of
// vs share it.
func (r *Result) capacityMarks(vs ...int) []report.Mark {
	var marks []report.Mark
	var owners [][]string
	add := func(m report.Mark, variant string) {
		for i := range marks {
			if marks[i].X == m.X && marks[i].Label == m.Label {
				owners[i] = append(owners[i], variant)
				return
			}
		}
		marks, owners = append(marks, m), append(owners, []string{variant})
	}
	for _, v := range vs {
		c := r.capacity[v]
		if c == nil {
			continue
		}
		add(report.Mark{X: c.Rate, Label: "capacity " + fmtRate(c.Rate) + " rps"}, r.Variants[v])
		if c.Retried < c.Rate*0.999 {
			add(report.Mark{X: c.Retried, Label: "capacity if every call retries: " + fmtRate(c.Retried) + " rps"}, r.Variants[v])
		}
	}
	for i := range marks {
		if len(owners[i]) < len(vs) {
			marks[i].Label += " (" + strings.Join(owners[i], ", ") + ")"
		}
	}
	return marks
}

// sweepCapacity is each variant's capacity, when the x axis sets a
// client's rate and every cell of the variant agrees on it (nil
// otherwise).
func sweepCapacity(sw *experiment.Sweep, cells []cell, variants int) []*Capacity {
	client := rateClient(sw.X.Path)
	out := make([]*Capacity, variants)
	if client == "" {
		return out
	}
	agree := make([]bool, variants)
	for i := range agree {
		agree[i] = true
	}
	for _, c := range cells {
		cp, ok := ClientCapacity(c.cfg, client)
		switch {
		case !ok:
			agree[c.v] = false
		case out[c.v] == nil:
			out[c.v] = &cp
		case *out[c.v] != cp:
			agree[c.v] = false
		}
	}
	for v := range out {
		if !agree[v] {
			out[v] = nil
		}
	}
	return out
}

// increasing reports whether the axis has n numbers in increasing order.
func increasing(xs []float64, n int) bool {
	if len(xs) != n || n == 0 {
		return false
	}
	for i := 1; i < n; i++ {
		if !(xs[i] > xs[i-1]) {
			return false
		}
	}
	return true
}

// cellPosition maps value v to the heatmap's x coordinate over equal
// cells at 0, 1, 2, ... whose centres hold the increasing values xs:
// linear between neighbouring centres, extended beyond the ends with the
// nearest step (a single centre: a step of its value, or 1).
func cellPosition(xs []float64, v float64) float64 {
	n := len(xs)
	if n == 1 {
		step := math.Max(math.Abs(xs[0]), 1)
		return (v - xs[0]) / step
	}
	i := 0
	for i < n-2 && v > xs[i+1] {
		i++
	}
	return float64(i) + (v-xs[i])/(xs[i+1]-xs[i])
}

// fmtRate writes a rate (or any number) without needless digits: 1000,
// 333, 12.5.
func fmtRate(r float64) string {
	if r >= 100 {
		return fmt.Sprintf("%.0f", r)
	}
	return fmt.Sprintf("%.3g", r)
}

// indicesInt is 0, 1, ..., n-1.
func indicesInt(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

package compare

import (
	"fmt"
	"math"
	"strings"

	"github.com/ressim/ressim/sim/headline"
	"github.com/ressim/ressim/sim/report"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/figures"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/topology"
)

// CompareFigures draws the comparison: goodput and user p99 latency over
// time with one line per variant (the mean over replications, interval by
// interval), fault windows shaded; and a bar chart per headline metric
// with 95 % interval whiskers.
func Figures(c *Comparison, stats []MetricStats, locked []LockedIn) []output.Figure {
	timeline := compareTimeline(c)
	figs := []output.Figure{output.Growing("compare-timeline.png", timeline)}
	// Each variant's own overview, replication 0.
	for a, arm := range c.Arms {
		for _, nf := range figures.Variant(c.Runs[a][0], arm.Name) {
			if nf.File == "overview.png" {
				figs = append(figs, output.Growing("overview-"+arm.Name+".png", nf.Figure))
			}
		}
	}
	// One bar per variant, named under it on the axis, its value above it.
	for _, ms := range stats {
		if bc, ok := metricBars(c, ms); ok {
			figs = append(figs, output.ChartFigure("bars-"+ms.Metric.Name+".png", bc))
		}
	}
	if len(locked) > 0 {
		bc := lockedBars(c, locked)
		figs = append(figs, output.ChartFigure("bars-locked_in.png", bc))
	}
	return figs
}

// compareTimeline draws the variants over time: goodput as small
// multiples, one panel per variant on one scale, each replication a thin
// line under the variant's mean (a mix of recovered and locked-in runs
// must not read as a level no run had); then the means of the requests in
// flight and of the p99 latency, overlaid.
func compareTimeline(c *Comparison) report.Figure {
	base := c.Runs[0][0]
	ts := base.Series
	x := make([]float64, ts.Len())
	for i := range x {
		x[i] = float64(ts.End(i)) / 1e9
	}
	// The mean over replications, interval by interval, folded as the
	// runs finished (Comparison.overlay).
	overlay := func(k int) []report.Line {
		var lines []report.Line
		for a, arm := range c.Arms {
			lines = append(lines, report.Line{Label: arm.Name, X: x, Y: c.overlay[a].mean(k, len(x))})
		}
		return lines
	}
	zero := 0.0
	firstClient := ""
	if len(base.Clients) > 0 {
		firstClient = base.Clients[0].Name
	}
	panels := c.goodputPanels(x, overlay(run.OverlayGoodput))
	panels = append(panels,
		report.Panel{Title: "User requests in flight (sent, not yet answered), mean", YLabel: "requests", YMin: &zero,
			Lines: overlay(run.OverlayInFlight)},
		report.Panel{Title: "p99 latency of answered requests (client " + firstClient + "), mean", YLabel: "latency (ms)", LogY: true,
			Lines: overlay(run.OverlayP99)})
	return report.Figure{
		Title: c.Name + ": " + c.verdicts(),
		Subtitle: fmt.Sprintf("seed %d, %d replication(s) per variant, per %v interval; goodput (full answers within the deadline): thin lines each replication, thick the mean",
			c.Seed, c.Replications, ts.Interval()),
		Spans:  figures.FaultSpans(base),
		Panels: panels,
	}
}

// goodputPanels are the goodput small multiples: per variant, its
// replications (the first maxReplicaLines) as thin lines and its mean,
// on one scale, titled with how many replications stayed locked in.
func (c *Comparison) goodputPanels(x []float64, means []report.Line) []report.Panel {
	zero := 0.0
	top := 0.0
	see := func(ys []float64) {
		for _, v := range ys {
			if !math.IsNaN(v) {
				top = max(top, v)
			}
		}
	}
	var panels []report.Panel
	for a, mean := range means {
		see(mean.Y)
		p := report.Panel{Title: c.goodputTitle(a), YLabel: "requests/s", YMin: &zero}
		for r, rl := range c.replicaLines[a] {
			if r >= c.Replications || rl.values == nil || c.Replications < 2 {
				continue
			}
			xs, ys := rl.points(x)
			see(ys)
			p.Lines = append(p.Lines, report.Line{Label: mean.Label, X: xs, Y: ys, Thin: true})
		}
		p.Lines = append(p.Lines, mean)
		p.Markers = actionMarkers(c.Runs[a][0])
		panels = append(panels, p)
	}
	if top > 0 {
		yMax := top * 1.05
		for i := range panels {
			panels[i].YMax = &yMax
		}
	}
	return panels
}

// actionMarkers mark a variant's timed actions on its own goodput panel
// (replication 0's: every replication of a variant has the same
// actions): a rule at each action's instant, named in the legend, so
// that teams' answers compared side by side show when each acted.
func actionMarkers(res *topology.Result) []report.Marker {
	var out []report.Marker
	for _, m := range figures.ActionMarks(res) {
		out = append(out, report.Marker{At: m.X, Label: "action: " + m.Label})
	}
	return out
}

// metricBars is a metric's bar chart, a bar per variant coloured by its
// verdict, titled with what differs from the base; ok is false when no
// variant has a value. Latencies are drawn in ms, as every other figure
// draws them.
func metricBars(c *Comparison, ms MetricStats) (bc report.BarChart, ok bool) {
	unit, scale := displayUnit(ms.Metric)
	bc = report.BarChart{
		Title:    metricFinding(c, ms),
		Subtitle: fmt.Sprintf("%s: %s, mean over %d replication(s), whiskers: 95 %% Student-t interval; colour: the variant's verdict", c.Name, ms.Metric.Label, c.Replications),
		YLabel:   fmt.Sprintf("%s (%s)", ms.Metric.Label, unit),
		XLabel:   "variant",
		Classes:  c.verdictClasses(),
	}
	if c.Replications < 2 {
		bc.Subtitle = fmt.Sprintf("%s: %s, 1 replication per variant: no interval (--replications 2 or more gives one); colour: the variant's verdict", c.Name, ms.Metric.Label)
	}
	bs := report.BarSeries{Label: ms.Metric.Label}
	any := false
	for _, st := range ms.Arms {
		v, lo, hi := st.Summary.Mean, st.Summary.Mean, st.Summary.Mean
		if st.Summary.Defined {
			lo, hi = st.Summary.CI95.Lo, st.Summary.CI95.Hi
		}
		if st.Summary.N == 0 || math.IsNaN(v) {
			v, lo, hi = math.NaN(), math.NaN(), math.NaN()
		} else {
			any = true
		}
		bc.Groups = append(bc.Groups, st.Arm)
		bs.Values, bs.Lo, bs.Hi = append(bs.Values, v*scale), append(bs.Lo, lo*scale), append(bs.Hi, hi*scale)
	}
	bc.Series = []report.BarSeries{bs}
	return bc, any
}

// displayUnit is the unit a metric's figures and the tables people read
// (compare.md, the terminal) show it in, and the factor from its own
// unit: latencies in ms (0.0999 s reads as 99.9 ms). compare.json and
// compare.csv keep the contract's units.
func displayUnit(m run.MetricDef) (string, float64) {
	if m.Unit == "s" && (m.Key == headline.P99Latency || m.Key == headline.P99OutcomeLatency) {
		return "ms", 1000
	}
	return m.Unit, 1
}

// metricFinding says what a metric's bars show: which variants differ
// from the base (their paired difference's 95 % interval excludes zero),
// higher or lower; that none does; or, with one replication, that
// there is no interval to tell.
func metricFinding(c *Comparison, ms MetricStats) string {
	var higher, lower []string
	defined := false
	for _, st := range ms.Arms {
		if st.Diff == nil || !st.Diff.Defined {
			continue
		}
		defined = true
		switch {
		case st.Diff.CI95.Lo > 0:
			higher = append(higher, st.Arm)
		case st.Diff.CI95.Hi < 0:
			lower = append(lower, st.Arm)
		}
	}
	switch {
	case !defined:
		return ms.Metric.Label + " per variant (no interval: 1 replication)"
	case len(higher)+len(lower) == 0:
		return ms.Metric.Label + ": no variant differs significantly from base"
	}
	var parts []string
	if len(higher) > 0 {
		parts = append(parts, strings.Join(higher, ", ")+" higher than base")
	}
	if len(lower) > 0 {
		parts = append(parts, strings.Join(lower, ", ")+" lower")
	}
	return ms.Metric.Label + ": " + strings.Join(parts, "; ")
}

// lockedBars is the chart of each variant's probability of staying
// locked in, titled with which variants stay locked in and which recover.
func lockedBars(c *Comparison, locked []LockedIn) report.BarChart {
	bc := report.BarChart{
		Title:    c.verdicts(),
		Subtitle: fmt.Sprintf("%s: probability of staying locked in after the first fault, %d replication(s) per variant, whiskers: 95 %% Wilson interval", c.Name, c.Replications),
		YLabel:   headline.LockedInProbability.Label(),
		XLabel:   "variant",
		Classes:  c.verdictClasses(),
	}
	bs := report.BarSeries{Label: "locked in after the first fault"}
	for _, l := range locked {
		bc.Groups = append(bc.Groups, l.Arm)
		bs.Values, bs.Lo, bs.Hi = append(bs.Values, l.P), append(bs.Lo, l.CI95.Lo), append(bs.Hi, l.CI95.Hi)
	}
	bc.Series = []report.BarSeries{bs}
	return bc
}

// verdictClasses are the variants' verdicts, for the bars' colours:
// "stays locked in" in every replication, "recovers" in every one,
// "locked in in some runs", "no verdict", or "no fault" when the
// experiment has none to judge.
func (c *Comparison) verdictClasses() []report.BarClass {
	var out []report.BarClass
	for a := range c.Arms {
		out = append(out, c.verdictClass(a))
	}
	return out
}

func (c *Comparison) verdictClass(a int) report.BarClass {
	hs := c.Headlines[a][:min(c.Replications, len(c.Headlines[a]))]
	if len(hs) == 0 || !hs[0].HasFault {
		return report.BarClass{Label: "no fault to judge", Tone: report.Neutral}
	}
	k := run.LockedInCount(hs)
	switch {
	case k == len(hs):
		return report.BarClass{Label: "stays locked in", Tone: report.Bad}
	case k > 0:
		return report.BarClass{Label: "locked in in some runs", Tone: report.Neutral}
	}
	for _, h := range hs {
		if !h.HasRecovery {
			return report.BarClass{Label: "no verdict", Tone: report.Neutral}
		}
	}
	return report.BarClass{Label: "recovers", Tone: report.Good}
}

// goodputTitle is variant a's goodput panel title, with how many of its
// replications the first fault left locked in.
func (c *Comparison) goodputTitle(a int) string {
	t := "Goodput, " + c.Arms[a].Name
	hs := c.Headlines[a][:min(c.Replications, len(c.Headlines[a]))]
	if len(hs) == 0 || !hs[0].HasFault {
		return t
	}
	k := run.LockedInCount(hs)
	switch {
	case len(hs) == 1 && k == 1:
		return t + ": locked in"
	case len(hs) == 1:
		return t + ": recovered"
	}
	return fmt.Sprintf("%s: %d of %d replications locked in", t, k, len(hs))
}

// verdicts says, for the figure's title, which variants stay locked in
// (in most replications) and which recover, or "variants compared" when
// the experiment has no fault to judge.
func (c *Comparison) verdicts() string {
	var locked, recovered []string
	for a, arm := range c.Arms {
		hs := c.Headlines[a][:min(c.Replications, len(c.Headlines[a]))]
		if len(hs) == 0 || !hs[0].HasFault {
			return "variants compared"
		}
		if 2*run.LockedInCount(hs) > len(hs) {
			locked = append(locked, arm.Name)
		} else {
			recovered = append(recovered, arm.Name)
		}
	}
	verb := func(names []string, one, many string) string {
		if len(names) == 1 {
			return names[0] + " " + one
		}
		return strings.Join(names, ", ") + " " + many
	}
	switch {
	case len(recovered) == 0:
		return "every variant stays locked in"
	case len(locked) == 0:
		return "every variant recovers"
	}
	return verb(locked, "stays locked in", "stay locked in") + "; " + verb(recovered, "recovers", "recover")
}

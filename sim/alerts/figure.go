package alerts

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ressim/ressim/sim/report"
	"github.com/ressim/ressim/sim/topology"
)

// Figure draws the run with faults: what the users got (goodput,
// degraded, failed per client), then one panel per alert that was ever
// active, its state (inactive, pending, firing at each evaluation) as a
// strip of bands under the users' goodput, then one per alert of the rules
// file that never went pending; fault windows shaded.
func (r *Report) Figure() report.Figure {
	res := r.run
	ts := res.Series
	x := make([]float64, ts.Len())
	for i := range x {
		x[i] = float64(ts.End(i)) / 1e9
	}
	zero := 0.0
	// line draws a recorded series. As in sim/run's figures, a series the
	// run did not record is a bug in this function, not in the run: it
	// must not draw a flat zero line that reads as data (zero goodput is
	// an outage), so it panics and the figure tests fail.
	line := func(entity string, k topology.SeriesKey, label string) report.Line {
		c := ts.Find(entity, k.Name)
		if c == nil {
			panic(fmt.Sprintf("alerts: the figure draws %s %q of %q, which the run did not record", k.Owner, k.Name, entity))
		}
		return report.Line{Label: label, X: x, Y: c.Values()}
	}
	users := report.Panel{Title: "What the users got", YLabel: "requests/s", YMin: &zero}
	var good []report.Line
	for _, c := range res.Clients {
		g := line(c.Name, topology.ClientGoodput, c.Name+" goodput")
		users.Lines = append(users.Lines, g,
			line(c.Name, topology.ClientDegraded, c.Name+" degraded"),
			line(c.Name, topology.ClientFailed, c.Name+" failed"))
		good = append(good, g)
	}
	fig := report.Figure{
		Title:    fmt.Sprintf("%s: alerts of %s", r.Experiment, r.Rules),
		Subtitle: fmt.Sprintf("seed %d; rules evaluated every %v", res.Seed, r.EvalInterval),
		Panels:   []report.Panel{users},
	}
	active := r.activeAlerts()
	fa := make(map[string]bool) // lookup only
	for _, e := range r.FalseAlarms() {
		fa[e.Alert] = true
	}
	for _, a := range active {
		title := a
		if fa[a] {
			title += " (false alarm: fires without faults too)"
		}
		fig.Panels = append(fig.Panels, report.Panel{Title: title, YLabel: "requests/s", YMin: &zero,
			Lines: good, States: r.bands(a), StatesLabel: "alert"})
	}
	for _, a := range r.Alerts {
		if !slices.ContainsFunc(active, func(s string) bool { return s == a || strings.HasPrefix(s, a+"{") }) {
			fig.Panels = append(fig.Panels, report.Panel{Title: a + " (never pending)", YLabel: "requests/s", YMin: &zero,
				Lines: good, States: r.bands(a), StatesLabel: "alert"})
		}
	}
	for _, f := range res.Faults {
		to := f.End.Seconds()
		if f.End <= f.Start {
			to = f.Start.Seconds() + res.Duration.Seconds()/200
		}
		fig.Spans = append(fig.Spans, report.Span{From: f.Start.Seconds(), To: to, Label: f.Label})
	}
	if r.Extended > 0 {
		fig.Spans = append(fig.Spans, report.Span{From: r.RunDuration.Seconds(), To: r.Duration.Seconds(),
			Label: fmt.Sprintf("run extended by %v (no fault)", r.Extended)})
	}
	fig.Height = min(report.MaxSize, 300+220*len(fig.Panels))
	return fig
}

// activeAlerts returns the alerts with an episode, in order of first
// activity.
func (r *Report) activeAlerts() []string {
	var out []string
	seen := make(map[string]bool)
	for _, e := range r.Episodes {
		if !seen[e.Alert] {
			seen[e.Alert] = true
			out = append(out, e.Alert)
		}
	}
	return out
}

// bands returns alert's state over the evaluated span: each evaluation's
// state holds until the next.
func (r *Report) bands(alert string) []report.StateBand {
	sec := func(d time.Duration) float64 { return d.Seconds() }
	var b []report.StateBand
	add := func(from, to time.Duration, st string) {
		if to <= from {
			return
		}
		if n := len(b); n > 0 && b[n-1].State == st {
			b[n-1].To = sec(to)
			return
		}
		b = append(b, report.StateBand{From: sec(from), To: sec(to), State: st})
	}
	t := time.Duration(0)
	for _, e := range r.Episodes {
		if e.Alert != alert {
			continue
		}
		end := r.Duration
		if e.Resolved {
			end = e.End
		}
		add(t, e.Pending, "inactive")
		if e.Fired {
			add(e.Pending, e.Firing, "pending")
			add(e.Firing, end, "firing")
		} else {
			add(e.Pending, end, "pending")
		}
		t = end
	}
	add(t, r.Duration, "inactive")
	return b
}

package run

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/metrics"
	"github.com/ressim/ressim/sim/report"
	"github.com/ressim/ressim/sim/topology"
)

// NamedFigure is a figure and the file name it is written to.
type NamedFigure struct {
	File   string
	Figure report.Figure
}

// Figures returns the default plots of a run: an overview (what the users
// got, the load each service saw, how full each service was) and one
// timeline per service (its load, occupancy and latency). Fault windows
// are shaded in every panel.
func Figures(res *topology.Result) []NamedFigure { return figures(res, "") }

// figures draws the default plots; variant, if not empty, is named in the
// titles.
func figures(res *topology.Result, variant string) []NamedFigure {
	ts := res.Series
	x := make([]float64, ts.Len())
	for i := range x {
		x[i] = float64(ts.End(i)) / 1e9
	}
	has := func(entity string, k topology.SeriesKey) bool { return ts.Find(entity, k.Name) != nil }
	// line draws a recorded series. A series the run did not record is a
	// bug in this function, not in the run: it must not draw a flat zero
	// line that looks like data, so it panics, and every figure test
	// fails (optional series are asked for with has first).
	line := func(entity string, k topology.SeriesKey, label string) report.Line {
		c := ts.Find(entity, k.Name)
		if c == nil {
			panic(fmt.Sprintf("run: a figure draws %s %q of %q, which the run did not record", k.Owner, k.Name, entity))
		}
		return report.Line{Label: label, X: x, Y: c.Values()}
	}
	spans := faultSpans(res)
	zero := 0.0
	subtitle := fmt.Sprintf("seed %d, values per %v interval", res.Seed, ts.Interval())

	users := report.Panel{Title: "What the users got (all clients)", YLabel: "requests/s", YMin: &zero}
	var latency []report.Line
	for _, c := range res.Clients {
		users.Lines = append(users.Lines,
			line(c.Name, topology.ClientSent, c.Name+" sent"),
			line(c.Name, topology.ClientGoodput, c.Name+" goodput"),
			line(c.Name, topology.ClientDegraded, c.Name+" degraded"),
			line(c.Name, topology.ClientFailed, c.Name+" failed"))
		latency = append(latency, line(c.Name, topology.ClientLatencyP50, c.Name+" p50 (answered)"),
			line(c.Name, topology.ClientLatencyP99, c.Name+" p99 (answered)"),
			line(c.Name, topology.ClientOutcomeP99, c.Name+" p99 (any outcome)"))
	}
	load := report.Panel{Title: "Attempts arriving at each service", YLabel: "attempts/s", YMin: &zero}
	busy := report.Panel{Title: "Busy workers (time average)", YLabel: "workers", YMin: &zero}
	for _, s := range res.Services {
		load.Lines = append(load.Lines, line(s.Name, topology.ServiceArrivals, s.Name))
		busy.Lines = append(busy.Lines, line(s.Name, topology.ServiceBusyWorkers, s.Name))
	}
	inFlight := report.Panel{Title: "User requests in flight (sent, not yet answered)", YLabel: "requests", YMin: &zero,
		Lines: []report.Line{line(topology.TotalEntity, topology.TotalInFlight, "all clients")}}
	panels := []report.Panel{users, inFlight, load, busy}
	// A panel per circuit breaker: its state as bands, the calls it refused
	// and the fallbacks served.
	for _, c := range ts.Columns() {
		if c.Metric() != topology.SiteBreakerState.Name {
			continue
		}
		site := c.Entity()
		p := report.Panel{Title: "Circuit breaker " + site, YLabel: "calls/s", YMin: &zero,
			States: stateBands(x, ts, c.Values()), StatesLabel: "breaker"}
		p.Lines = append(p.Lines, line(site, topology.SiteShortCircuited, "refused (open)"))
		if has(site, topology.SiteFallback) {
			p.Lines = append(p.Lines, line(site, topology.SiteFallback, "fallback served"))
		}
		panels = append(panels, p)
	}
	var limits []report.Line
	for _, s := range res.Services {
		if has(s.Name, topology.ServiceLimit) {
			limits = append(limits, line(s.Name, topology.ServiceLimit, s.Name+" limit"), line(s.Name, topology.ServiceBusyWorkers, s.Name+" in service"))
		}
	}
	if len(limits) > 0 {
		panels = append(panels, report.Panel{Title: "Adaptive concurrency limit", YLabel: "requests", YMin: &zero, Lines: limits})
	}
	panels = append(panels, report.Panel{Title: "User-visible latency: answered requests, and any outcome (failures, give-ups)", YLabel: "latency (ms)", LogY: true, Lines: latency})
	var amp []report.Line
	for _, s := range res.Services {
		if s.Amplification > 1.05 {
			amp = append(amp, line(s.Name, topology.ServiceAmplification, s.Name))
		}
	}
	if len(amp) > 0 {
		panels = append(panels, report.Panel{Title: "Amplification (attempts per user request)", YLabel: "attempts/request", YMin: &zero, Lines: amp})
	}
	title := res.Name + ": " + finding(res)
	if variant != "" {
		title = res.Name + " (" + variant + "): " + finding(res)
	}
	overview := report.Figure{
		Title:    title,
		Subtitle: subtitle,
		Spans:    spans,
		Panels:   panels,
	}
	figs := []NamedFigure{{File: "overview.png", Figure: overview}}

	for _, s := range res.Services {
		n := s.Name
		loadLines := []report.Line{
			line(n, topology.ServiceArrivals, "arrivals"),
			line(n, topology.ServiceThroughput, "completed"),
			line(n, topology.ServiceRejected, "rejected"),
			line(n, topology.ServiceDropped, "dropped (deadline)"),
			line(n, topology.ServiceErrors, "failed"),
			line(n, topology.ServiceDegraded, "degraded"),
		}
		// The admission policies' refusals, when the service has them.
		for _, extra := range []struct {
			key   topology.SeriesKey
			label string
		}{{topology.ServiceShed, "shed (priority)"}, {topology.ServiceLimited, "refused by the limit"}, {topology.ServiceQueueDropped, "dropped from the queue"}} {
			if has(n, extra.key) {
				loadLines = append(loadLines, line(n, extra.key, extra.label))
			}
		}
		occupancy := []report.Line{
			line(n, topology.ServiceQueueLength, "queue length"),
			line(n, topology.ServiceBusyWorkers, "busy workers"),
			line(n, topology.ServiceWastedWork, "wasted (busy for nobody)"),
		}
		// Expired requests still holding queue places (abandonment
		// at_dequeue with propagated deadlines).
		if has(n, topology.ServiceExpiredInQueue) {
			occupancy = append(occupancy, line(n, topology.ServiceExpiredInQueue, "queued past their deadline"))
		}
		figs = append(figs, NamedFigure{File: "timeline-" + n + ".png", Figure: report.Figure{
			Title:    fmt.Sprintf("%s: service %s", res.Name, n),
			Subtitle: fmt.Sprintf("%s, %d instance(s) x %d workers", subtitle, s.Instances, s.Workers),
			Spans:    spans,
			Panels: []report.Panel{
				{Title: "Load", YLabel: "requests/s", YMin: &zero, Lines: loadLines},
				{Title: "Occupancy (time average)", YLabel: "requests", YMin: &zero, Lines: occupancy},
				{
					Title: "Latency at the service (arrival to response)", YLabel: "latency (ms)", LogY: true,
					Lines: []report.Line{
						line(n, topology.ServiceLatencyP50, "p50"),
						line(n, topology.ServiceLatencyP90, "p90"),
						line(n, topology.ServiceLatencyP99, "p99"),
						line(n, topology.ServiceLatencyP999, "p99.9"),
					},
				},
			},
		}})
	}
	return figs
}

// faultSpans shades the warm-up and every fault window; an instantaneous
// fault (a cache flush) gets a thin band.
func faultSpans(res *topology.Result) []report.Span {
	var spans []report.Span
	if res.Warmup > 0 {
		spans = append(spans, report.Span{From: 0, To: res.Warmup.Seconds(), Label: "warm-up"})
	}
	thin := res.Duration.Seconds() / 200
	for _, f := range res.Faults {
		from, to := f.Start.Seconds(), f.End.Seconds()
		if to <= from {
			to = from + thin
		}
		spans = append(spans, report.Span{From: from, To: to, Label: f.Label})
	}
	return append(spans, surgeSpans(res)...)
}

// surgeSpans shades the stretches of a client's schedule whose rate is
// above the schedule's first: load surges that are not faults.
func surgeSpans(res *topology.Result) []report.Span {
	var spans []report.Span
	for _, c := range res.Clients {
		pts := c.Schedule
		for i, p := range pts {
			if i == 0 || !(p.Rate > 1.2*pts[0].Rate) {
				continue
			}
			to := res.Duration
			if i+1 < len(pts) {
				to = pts[i+1].At
			}
			spans = append(spans, report.Span{From: p.At.Seconds(), To: to.Seconds(),
				Label: fmt.Sprintf("%s surge %.0f/s", c.Name, p.Rate)})
		}
	}
	return spans
}

// finding is what an overview's title says the run found: the first
// fault's verdict in words.
func finding(res *topology.Result) string {
	if len(res.Faults) == 0 {
		return "overview"
	}
	f := res.Faults[0]
	r := f.Recovery
	switch r.Verdict {
	case topology.VerdictLockedIn:
		return fmt.Sprintf("locked in after %q, never recovered", f.Label)
	case topology.VerdictRelapsed:
		return fmt.Sprintf("back after %q, relapsed at %.0f s and stayed down", f.Label, r.Relapsed.Seconds())
	case topology.VerdictRecovered:
		if r.Time == 0 {
			return fmt.Sprintf("recovered as soon as %q ended", f.Label)
		}
		return fmt.Sprintf("recovered %v after %q ended", r.Time.Round(100*time.Millisecond), f.Label)
	case topology.VerdictUnaffected:
		return fmt.Sprintf("unaffected by %q", f.Label)
	}
	return fmt.Sprintf("%q: no verdict (%s)", f.Label, r.Reason)
}

// stateBands turns a sampled breaker state (0 closed, 1 half-open, 2
// open, at each interval's end) into coloured bands.
func stateBands(x []float64, ts *metrics.TimeSeries, v []float64) []report.StateBand {
	names := []string{"closed", "half-open", "open"}
	var bands []report.StateBand
	for i := range v {
		from := float64(ts.Start(i)) / 1e9
		st := names[min(max(int(v[i]), 0), 2)]
		if n := len(bands); n > 0 && bands[n-1].State == st {
			bands[n-1].To = x[i]
			continue
		}
		bands = append(bands, report.StateBand{From: from, To: x[i], State: st})
	}
	return bands
}

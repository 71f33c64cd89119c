package figures

import (
	"fmt"
	"math"

	"github.com/ressim/ressim/sim/metrics"
	"github.com/ressim/ressim/sim/report"
	"github.com/ressim/ressim/sim/topology"
)

// seriesReader turns a run's recorded series into report lines.
type seriesReader struct {
	res *topology.Result
	ts  *metrics.TimeSeries
	x   []float64 // interval ends, in seconds
}

func newSeriesReader(res *topology.Result) *seriesReader {
	ts := res.Series
	x := make([]float64, ts.Len())
	for i := range x {
		x[i] = float64(ts.End(i)) / 1e9
	}
	return &seriesReader{res: res, ts: ts, x: x}
}

// has reports whether the run recorded the series.
func (sr *seriesReader) has(entity string, k topology.SeriesKey) bool {
	return sr.ts.Find(entity, k.Name) != nil
}

// line draws a recorded series. A series the run did not record is a
// bug in the figure code, not in the run: it must not draw a flat zero
// line that looks like data, so it panics, and every figure test
// fails (optional series are asked for with has first).
func (sr *seriesReader) line(entity string, k topology.SeriesKey, label string) report.Line {
	c := sr.ts.Find(entity, k.Name)
	if c == nil {
		panic(fmt.Sprintf("figures: a figure draws %s %q of %q, which the run did not record", k.Owner, k.Name, entity))
	}
	return report.Line{Label: label, X: sr.x, Y: c.Values()}
}

// overviewPanels are the overview figure's panels: users, in flight, load,
// busy workers, a panel per breaker, the adaptive limits, latency and
// amplification.
func (sr *seriesReader) overviewPanels() []report.Panel {
	res, line := sr.res, sr.line
	zero := 0.0
	var latency []report.Line
	for _, c := range res.Clients {
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
	load.Markers = instanceMarkers(res)
	if spread(load.Lines) {
		// Retries multiply the attempts layer by layer (100, 300, 900,
		// 2,700 per second): on a linear axis the first layers would
		// sit at its floor.
		load.LogY, load.YMin = true, nil
		load.Title += " (log scale)"
	}
	inFlight := report.Panel{Title: "User requests in flight (sent, not yet answered)", YLabel: "requests", YMin: &zero,
		Lines: []report.Line{line(topology.TotalEntity, topology.TotalInFlight, "all clients")}}
	panels := append(sr.usersPanels(), inFlight, load, busy)
	panels = append(panels, sr.breakerPanels()...)
	var limits []report.Line
	for _, s := range res.Services {
		if sr.has(s.Name, topology.ServiceLimit) {
			limits = append(limits, line(s.Name, topology.ServiceLimit, s.Name+" limit"), line(s.Name, topology.ServiceBusyWorkers, s.Name+" in service"))
		}
	}
	if len(limits) > 0 {
		panels = append(panels, report.Panel{Title: "Adaptive concurrency limit", YLabel: "requests", YMin: &zero, Lines: limits, Markers: limitMarkers(res)})
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
	return panels
}

// smallShare: a client whose peak rate is under smallShare of the
// busiest client's would be drawn at the floor of a shared axis (100
// cart updates/s under 1,000 product pages/s), so the clients then get a
// panel each.
const smallShare = 0.25

// usersPanels are what the users got (sent, goodput, degraded, failed):
// one panel for all the clients, or a panel per client when their rates
// differ so much that a shared axis would flatten the smaller ones.
func (sr *seriesReader) usersPanels() []report.Panel {
	zero := 0.0
	all := report.Panel{Title: "What the users got (all clients)", YLabel: "requests/s", YMin: &zero}
	var each []report.Panel
	lo, hi := math.Inf(1), 0.0
	for _, c := range sr.res.Clients {
		lines := []report.Line{
			sr.line(c.Name, topology.ClientSent, c.Name+" sent"),
			sr.line(c.Name, topology.ClientGoodput, c.Name+" goodput"),
			sr.line(c.Name, topology.ClientDegraded, c.Name+" degraded"),
			sr.line(c.Name, topology.ClientFailed, c.Name+" failed")}
		peak := 0.0
		for _, l := range lines {
			for _, v := range l.Y {
				if !math.IsNaN(v) {
					peak = max(peak, v)
				}
			}
		}
		lo, hi = min(lo, peak), max(hi, peak)
		all.Lines = append(all.Lines, lines...)
		each = append(each, report.Panel{Title: "What the users got: client " + c.Name, YLabel: "requests/s", YMin: &zero, Lines: lines})
	}
	if len(each) > 1 && lo < smallShare*hi {
		return each
	}
	return []report.Panel{all}
}

// spread reports whether lines' peaks differ so much that the smaller
// ones would sit at the floor of a shared linear axis (see smallShare),
// and every line is positive at 9 of 10 points or more, so that a log
// axis (which leaves zeros out) loses little.
func spread(lines []report.Line) bool {
	lo, hi := math.Inf(1), 0.0
	for _, l := range lines {
		peak, pos := 0.0, 0
		for _, v := range l.Y {
			if v > 0 {
				peak, pos = max(peak, v), pos+1
			}
		}
		if 10*pos < 9*len(l.Y) {
			return false
		}
		lo, hi = min(lo, peak), max(hi, peak)
	}
	return len(lines) > 1 && lo < smallShare*hi
}

// breakerPanels are a panel per circuit breaker: its state as bands
// (from the event log: every transition), its probes as markers, the
// calls it refused and the fallbacks served.
func (sr *seriesReader) breakerPanels() []report.Panel {
	zero := 0.0
	var panels []report.Panel
	for _, c := range sr.ts.Columns() {
		if c.Metric() != topology.SiteBreakerState.Name {
			continue
		}
		site := c.Entity()
		p := report.Panel{Title: "Circuit breaker " + site, YLabel: "calls/s", YMin: &zero,
			StatesLabel: "breaker", Markers: probeMarkers(sr.res, site)}
		if bands, ok := breakerBands(sr.res, site); ok {
			p.States = bands
		} else {
			p.States = stateBands(sr.x, sr.ts, c.Values())
		}
		p.Lines = append(p.Lines, sr.line(site, topology.SiteShortCircuited, "refused (open)"))
		if sr.has(site, topology.SiteFallback) {
			p.Lines = append(p.Lines, sr.line(site, topology.SiteFallback, "fallback served"))
		}
		panels = append(panels, p)
	}
	return panels
}

// serviceTimeline is a service's own figure: load, queue, workers,
// latency.
func (sr *seriesReader) serviceTimeline(s topology.ServiceResult, subtitle string, spans []report.Span, marks []report.Mark) Named {
	n, line := s.Name, sr.line
	zero := 0.0
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
		if sr.has(n, extra.key) {
			loadLines = append(loadLines, line(n, extra.key, extra.label))
		}
	}
	// The queue and the workers have their own panels: a queue of
	// 2,000 would flatten 10 busy workers, and the workers busy for
	// nobody, at the floor of a shared axis.
	queue := []report.Line{line(n, topology.ServiceQueueLength, "queue length")}
	// Expired requests still holding queue places (abandonment
	// at_dequeue with propagated deadlines).
	if sr.has(n, topology.ServiceExpiredInQueue) {
		queue = append(queue, line(n, topology.ServiceExpiredInQueue, "queued past their deadline"))
	}
	workers := []report.Line{
		line(n, topology.ServiceBusyWorkers, "busy workers"),
		line(n, topology.ServiceWastedWork, "wasted (busy for nobody)"),
	}
	return Named{File: "timeline-" + n + ".png", Figure: report.Figure{
		Title:    fmt.Sprintf("%s: service %s", sr.res.Name, n),
		Subtitle: fmt.Sprintf("%s, %d instance(s) x %d workers", subtitle, s.Instances, s.Workers),
		Spans:    spans,
		Marks:    marks,
		Panels: []report.Panel{
			{Title: "Load", YLabel: "requests/s", YMin: &zero, Lines: loadLines},
			{Title: "Queue (time average)", YLabel: "requests", YMin: &zero, Lines: queue},
			{Title: "Workers (time average): busy, and busy for nobody (their caller gave up)", YLabel: "workers", YMin: &zero, Lines: workers},
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
	}}
}

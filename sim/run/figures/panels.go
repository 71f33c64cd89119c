package figures

import (
	"fmt"

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
	load.Markers = instanceMarkers(res)
	inFlight := report.Panel{Title: "User requests in flight (sent, not yet answered)", YLabel: "requests", YMin: &zero,
		Lines: []report.Line{line(topology.TotalEntity, topology.TotalInFlight, "all clients")}}
	panels := []report.Panel{users, inFlight, load, busy}
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

// serviceTimeline is a service's own figure: load, occupancy, latency.
func (sr *seriesReader) serviceTimeline(s topology.ServiceResult, subtitle string, spans []report.Span) Named {
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
	occupancy := []report.Line{
		line(n, topology.ServiceQueueLength, "queue length"),
		line(n, topology.ServiceBusyWorkers, "busy workers"),
		line(n, topology.ServiceWastedWork, "wasted (busy for nobody)"),
	}
	// Expired requests still holding queue places (abandonment
	// at_dequeue with propagated deadlines).
	if sr.has(n, topology.ServiceExpiredInQueue) {
		occupancy = append(occupancy, line(n, topology.ServiceExpiredInQueue, "queued past their deadline"))
	}
	return Named{File: "timeline-" + n + ".png", Figure: report.Figure{
		Title:    fmt.Sprintf("%s: service %s", sr.res.Name, n),
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
	}}
}

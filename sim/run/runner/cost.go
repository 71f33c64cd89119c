package runner

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/ressim/ressim/sim/metrics"
	"github.com/ressim/ressim/sim/topology"
)

// Cost is an estimate, from the configuration alone and with topology's
// defaults applied (instances 0 means 1, interval 0 means 1 s), of what
// one run of a model costs. The formula (docs/security.md, "Budgets"):
//
//	events ≈ Σ clients requests × E(target handler, client policy)
//	         + Σ services max(instances, 1) × duration × 2 / (each probe
//	           period and the outlier interval)
//	         + intervals × (1 + services + clients)
//	E(policy, handler) = attempts × (4 + Σ steps: work 1, call p × E(call))
//	series points = intervals × (topology.Config.SeriesColumns
//	                + HistogramColumns)
//
// where requests is, for an open-loop client, the integral over the run
// of the rate the model runs (topology.ClientConfig.OpenRequests: the
// schedule, stepwise or linear, times the load faults while they are
// active), and for a closed-loop one users × duration / (mean think time
// + the handler's mean work), or / the mean think time alone when a
// request may come back at once (refused at the target's door or by the
// client's own breaker or bulkhead, answered by a cache: costquick.go),
// without bound when that is 0; attempts is the retry policy's max_attempts
// (1 without retries); 4 events an attempt (arrival, work or response,
// timeout, delivery). Memory adds the event log at its cap
// (topology.Config.EventLogCap) × 120 bytes; SeriesBytes, EventsBytes
// and OpenMetrics are the bytes the data files take (SeriesBytes a bound,
// from the columns' names, the longest instants and values). It assumes
// every attempt is retried to the limit, so it over-estimates the events
// a run fires, never the reverse except where a queue grows without
// bound, which the run-time memory budget catches (TestEstimateBothWays
// states the factors).
type Cost struct {
	// Events is the estimated number of events one run fires.
	Events float64
	// Entities is the users, instances and workers the model holds at
	// once, at least.
	Entities float64
	// SeriesPoints is time-series values recorded (columns × intervals).
	SeriesPoints float64
	// Memory is the estimated bytes one run holds at its peak, not
	// counting queues that grow (those the run-time budget bounds).
	Memory float64
	// SeriesBytes bounds the bytes of the run's timeseries.csv (a row
	// per series value); EventsBytes estimates those of events.csv, at
	// the event log's cap.
	SeriesBytes, EventsBytes float64
	// OpenMetrics is the estimated bytes of metrics.om (ressim run
	// --openmetrics): every series value and latency-histogram bucket as
	// an OpenMetrics sample line. metrics.prom (--prometheus-text) holds
	// the same samples and is estimated at the same size.
	OpenMetrics float64
	// TraceOTLP bounds the bytes of trace.otlp.json (ressim run --trace N
	// --trace-format otlp): the requests traced (topology.TraceConfig)
	// times the spans of the costliest client's request, a root and two
	// per attempt (at most one attempt per eventsPerAttempt of its
	// events), at otlpBytesPerSpan each; 0 without tracing.
	TraceOTLP float64
	// Drivers name the keys that drive Events, the largest first, as
	// "key (share of the events)".
	Drivers []string
}

// Bytes per unit, measured roughly on the bundled experiments: a pending
// event with its request records, a closed-loop user, a worker slot, a
// time-series value.
const (
	bytesPerPending = 600
	bytesPerUser    = 400
	bytesPerWorker  = 64
	bytesPerPoint   = 8
	bytesPerEvent   = 120 // a logged state change (topology.Event) and its strings
)

// Bytes written per unit, measured on the bundled experiments (180 to
// 210 bytes of metrics.om a series value with its share of the
// histograms), rounded up. timeseries.csv is bounded from its columns'
// names instead (metrics.CSVBound): a row is 34 to 60 bytes in the
// bundled runs, but well over 100 for a call site between two long names,
// which a flat 64 bytes a row under-counted.
const (
	omBytesPerSample = 120
	csvBytesPerEvent = 160 // an events.csv row
	otlpBytesPerSpan = 600 // a span of trace.otlp.json: 330 to 480 measured
)

// Estimate returns the cost of one run of cfg.
func Estimate(cfg topology.Config) Cost {
	var c Cost
	d := cfg.Duration.Seconds()
	drivers := map[string]float64{}
	e := newEstimator(&cfg)
	var inFlight, allReqs, perReq float64
	for _, cl := range cfg.Clients {
		reqs, key := e.clientRequests(cl)
		one := e.call(cl.Call, topology.CallRef{Client: cl.Name}, cl.Target, cl.Operation)
		allReqs, perReq = allReqs+reqs, max(perReq, one)
		ev := reqs * one
		c.Events += ev
		drivers[key] += ev
		c.Entities += float64(cl.Users)
		inFlight += float64(cl.Users)
	}
	for _, s := range cfg.Services {
		inst := float64(max(s.Instances, 1)) // topology's default: 0 means 1
		ev := inst * d * periodicRate(s)
		c.Events += ev
		if ev > 0 {
			drivers[fmt.Sprintf("service %q probe periods and outlier interval", s.Name)] += ev
		}
		c.Entities += inst * float64(1+s.Workers)
	}
	iv := cfg.Interval
	if iv <= 0 {
		iv = topology.DefaultInterval
	}
	intervals := math.Ceil(d / iv.Seconds())
	// The columns the model records (topology.Config.SeriesLabels), then
	// the latency histograms', which a run records for OpenMetrics only
	// but which are counted here whatever the outputs.
	labels := cfg.SeriesLabels()
	cols, hist := float64(len(labels)), float64(cfg.HistogramColumns())
	c.SeriesPoints = intervals * (cols + hist)
	c.SeriesBytes = seriesBytes(labels, int(intervals), cfg.Duration)
	c.EventsBytes = csvBytesPerEvent * float64(eventLogCap(cfg))
	c.OpenMetrics = intervals * (cols + hist) * omBytesPerSample
	c.TraceOTLP = traceSpans(cfg.Trace, allReqs, perReq) * otlpBytesPerSpan
	c.Events += intervals * (1 + float64(len(cfg.Services)+len(cfg.Clients)))
	drivers["[experiment] interval"] += intervals * (1 + float64(len(cfg.Services)+len(cfg.Clients)))
	c.Memory = c.SeriesPoints*bytesPerPoint + inFlight*bytesPerUser + c.Entities*bytesPerWorker +
		bytesPerPending*math.Min(c.Events, 1e4) + bytesPerEvent*float64(eventLogCap(cfg))
	c.Drivers = topDrivers(drivers, c.Events)
	return c
}

// seriesBytes bounds the bytes of timeseries.csv for a run of the given
// duration that records intervals intervals of the columns labels
// (topology's SeriesLabels): their names in every row, the instants and
// values at their longest.
func seriesBytes(labels []topology.SeriesLabel, intervals int, d time.Duration) float64 {
	names := make([][3]string, len(labels))
	for i, l := range labels {
		names[i] = [3]string{l.Entity, l.Key.Name, l.Key.Unit}
	}
	return float64(metrics.CSVBound(names, intervals, int64(d)))
}

// eventLogCap is the most state changes a run of cfg logs: the log's
// memory is bounded by its cap, whatever the run does.
func eventLogCap(cfg topology.Config) int {
	if cfg.EventLogCap > 0 {
		return cfg.EventLogCap
	}
	return topology.DefaultEventLogCap
}

// clientRequests is the user requests a client sends in the run, and the
// key that sets it. A closed-loop user's cycle is its mean think time
// plus its target's mean local work, or the think time alone when a
// request may come back at once (instantly); a cycle of no time at all
// has no bound (the user sends for ever at one instant), and neither has
// the estimate.
func (e *estimator) clientRequests(cl topology.ClientConfig) (float64, string) {
	cfg := e.cfg
	d := cfg.Duration.Seconds()
	if cl.Users > 0 {
		cycle := cl.ThinkTime.Mean().Seconds()
		if !e.instantly(&cl) {
			cycle += e.workOf(cl.Target, cl.Operation)
		}
		key := fmt.Sprintf("client %q users", cl.Name)
		if cycle <= 0 {
			return math.Inf(1), key
		}
		return float64(cl.Users) * d / cycle, key
	}
	key := fmt.Sprintf("client %q rate", cl.Name)
	if len(cl.Schedule) > 0 {
		key = fmt.Sprintf("client %q schedule", cl.Name)
	}
	for _, f := range cfg.Faults {
		if f.Kind == topology.LoadFault && f.Target == cl.Name && f.Multiply > 1 {
			key += " x fault multiply"
			break
		}
	}
	return cl.OpenRequests(cfg.Faults, cfg.Actions, cfg.Duration), key
}

// periodicRate is the events per second per instance of a service's
// probes and outlier detection.
func periodicRate(s topology.ServiceConfig) float64 {
	var r float64
	per := func(p time.Duration) {
		if p > 0 {
			r += 2 / p.Seconds() // the probe and its timeout
		}
	}
	if g := s.Guards.Readiness; g != nil {
		per(g.Probe.Period)
	}
	if g := s.Guards.Liveness; g != nil {
		per(g.Probe.Period)
	}
	if g := s.Guards.Outlier; g != nil {
		per(g.Interval)
	}
	return r
}

// topDrivers lists the keys behind at least 10 % of the events.
func topDrivers(m map[string]float64, total float64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	var out []string
	for _, k := range keys {
		switch {
		case math.IsInf(total, 1):
			if math.IsInf(m[k], 1) && len(out) < 4 {
				out = append(out, k+" (without bound)")
			}
		case total > 0 && m[k] >= total/10 && len(out) < 4:
			out = append(out, fmt.Sprintf("%s (%.0f%%)", k, 100*m[k]/total))
		}
	}
	return out
}

// String is the estimate in one line, as ressim validate prints it.
func (c Cost) String() string {
	s := fmt.Sprintf("estimated cost per run: %s events, %s series points, about %s of memory, %s of data files (%s with --openmetrics)",
		FormatCount(c.Events), FormatCount(c.SeriesPoints), FormatBytes(c.Memory),
		FormatBytes(c.SeriesBytes+c.EventsBytes), FormatBytes(c.SeriesBytes+c.EventsBytes+c.OpenMetrics))
	if len(c.Drivers) > 0 {
		s += "; driven by " + strings.Join(c.Drivers, ", ")
	}
	return s
}

// FormatCount writes a count with an SI prefix: 950, 1.2k, 3.4M, 5.6G.
func FormatCount(x float64) string {
	switch {
	case math.IsInf(x, 0) || x >= 1e15:
		return fmt.Sprintf("%.3g", x)
	case x >= 1e9:
		return fmt.Sprintf("%.1fG", x/1e9)
	case x >= 1e6:
		return fmt.Sprintf("%.1fM", x/1e6)
	case x >= 1e3:
		return fmt.Sprintf("%.1fk", x/1e3)
	}
	return fmt.Sprintf("%.0f", x)
}

// FormatBytes writes a byte count in binary units: 12 KiB, 3.4 MiB, 5.6 GiB.
func FormatBytes(x float64) string {
	switch {
	case x >= 1<<40 || math.IsInf(x, 0):
		return fmt.Sprintf("%.3g TiB", x/(1<<40))
	case x >= 1<<30:
		return fmt.Sprintf("%.1f GiB", x/(1<<30))
	case x >= 1<<20:
		return fmt.Sprintf("%.1f MiB", x/(1<<20))
	}
	return fmt.Sprintf("%.0f KiB", x/(1<<10))
}

// traceSpans bounds the spans of a run's OpenTelemetry trace: the
// requests tr samples out of reqs sent, each with a root span and two
// spans (CLIENT and SERVER) per attempt, at most one attempt per
// eventsPerAttempt of the costliest request's events (perReq).
func traceSpans(tr topology.TraceConfig, reqs, perReq float64) float64 {
	if tr.Every <= 0 {
		return 0
	}
	most := tr.Max
	if most <= 0 {
		most = topology.DefaultTraceMax
	}
	traced := min(float64(most), math.Ceil(reqs/float64(tr.Every)))
	return traced * (1 + 2*perReq/eventsPerAttempt)
}

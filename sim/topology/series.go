package topology

import (
	"time"

	"github.com/ressim/ressim/sim/policies/breaker"

	"github.com/ressim/ressim/sim/engine"
	"github.com/ressim/ressim/sim/metrics"
)

// seriesRecorder closes one time-series interval at every interval
// boundary (and at the end of the run).
type seriesRecorder struct {
	m             *Model
	interval      time.Duration
	ts            *metrics.TimeSeries
	last          engine.Time // start of the open interval
	err           error       // the first error met; it stops the run
	svcCols       []serviceColumns
	clCols        []clientColumns
	siteCols      []siteColumns
	total         *metrics.Column   // goodput over all clients
	totalInFlight *metrics.Column   // user requests in flight at each interval's end
	good          []uint64          // full answers per interval, for the verdicts
	inFlight      []int64           // user requests in flight at each interval's end
	scratch       metrics.Histogram // for merging a client's interval latencies
	clHist        []HistogramSeries // one per client, in model order
	svcHist       []HistogramSeries // one per service, in model order
	hists         bool              // record clHist and svcHist (Model.RecordHistogramSeries)
}

// histograms returns the clients' then the services' latency histograms,
// or nil if they were not recorded.
func (r *seriesRecorder) histograms() []HistogramSeries {
	if !r.hists {
		return nil
	}
	return append(append([]HistogramSeries(nil), r.clHist...), r.svcHist...)
}

// serviceColumns are one service's time-series columns.
type serviceColumns struct {
	arrivals, throughput, rejected, dropped, errors, degraded *metrics.Column
	inSystem, queue, busy, workers                            *metrics.Column
	expired                                                   *metrics.Column // AtDequeue with deadlines only
	p50, p90, p99, p999, mean                                 *metrics.Column
	wasted, amplification                                     *metrics.Column
	cacheHit                                                  *metrics.Column
	shed, limited, queueDropped, limit, ejected, ready        *metrics.Column
	queueAge                                                  *metrics.Column
	cancelled                                                 *metrics.Column // with a cancellation mode only
}

// siteColumns are a call site's columns.
type siteColumns struct {
	site                                            *callSite
	breaker, shortCircuited, bulkheadFull, fallback *metrics.Column
	opened, inUse, attempts                         *metrics.Column
	tokens, retries, retriesDenied                  *metrics.Column
	fallbackFailed                                  *metrics.Column
}

// clientColumns are one client's time-series columns.
type clientColumns struct {
	sent, goodput, degraded, failed, p50, p99, outcome *metrics.Column
}

// TotalEntity is the time-series entity that sums over all clients.
const TotalEntity = "all_clients"

// breakerLevel encodes a breaker state as a number for the time series.
func breakerLevel(st breaker.State) float64 {
	switch st {
	case breaker.HalfOpen:
		return 1
	case breaker.Open:
		return 2
	}
	return 0
}

func (r *seriesRecorder) start() {
	// The run's intervals are known: size every series once, instead of
	// letting each grow by doubling (which copies and allocates about
	// twice the final size; docs/performance.md).
	n := int((r.m.end + engine.Time(r.interval) - 1) / engine.Time(r.interval))
	r.ts.Reserve(n)
	if r.hists {
		for _, h := range r.clHist {
			h.Buckets.Reserve(n)
		}
		for _, h := range r.svcHist {
			h.Buckets.Reserve(n)
		}
	}
	r.m.at(r.next(0), r, nil)
}

// next returns the end of the interval starting at t.
func (r *seriesRecorder) next(t engine.Time) engine.Time {
	return min(t.Add(r.interval), r.m.end)
}

// nsToMs converts nanoseconds to milliseconds, the latency columns' unit.
func nsToMs(ns int64) float64 { return float64(ns) / 1e6 }

// recovery judges the system's recovery from fault f (see decide): the
// examined span runs from the fault to the end of the run or the start of
// the next fault, whichever is first.
func (r *seriesRecorder) recovery(f *FaultConfig) Recovery {
	m := r.m
	start, end := int64(f.Start), int64(f.End)
	if f.Kind == CacheFlushFault {
		end = start
	}
	horizon := int64(m.end)
	for _, o := range m.cfg.Faults {
		if s := int64(o.Start); s > end && s < horizon {
			horizon = s
		}
	}
	cfg := m.cfg.Recovery
	p := verdictSpan{
		warmup: int64(m.warmup), faultStart: start, faultEnd: end, horizon: horizon,
		threshold: cfg.Threshold, window: cfg.Window, alpha: cfg.Alpha,
	}
	if p.threshold == 0 {
		p.threshold = 0.9
	}
	if p.window == 0 {
		p.window = 5 * time.Second
	}
	if p.alpha == 0 {
		p.alpha = DefaultRecoveryAlpha
	}
	n := len(r.good)
	s := verdictSeries{good: r.good, inFlight: r.inFlight, start: make([]int64, n), end: make([]int64, n)}
	for i := range n {
		s.start[i], s.end[i] = r.ts.Start(i), r.ts.End(i)
	}
	return decide(s, p)
}

package topology

import (
	"time"

	"github.com/ressim/ressim/sim/metrics"
)

// columnMaker creates time-series columns and keeps the first error met,
// so the builders below read as tables.
type columnMaker struct {
	ts  *metrics.TimeSeries
	err error
}

func (cm *columnMaker) col(entity string, k SeriesKey) *metrics.Column {
	c, err := cm.ts.Column(entity, k.Name, k.Unit)
	if err != nil && cm.err == nil {
		cm.err = err
	}
	return c
}

// newSeriesRecorder creates the columns of every entity of m: the totals,
// then each client, service and call site, in model order (the
// order of the columns in the output).
func newSeriesRecorder(m *Model, interval time.Duration) (*seriesRecorder, error) {
	ts, err := metrics.NewTimeSeries(interval)
	if err != nil {
		return nil, err
	}
	r := &seriesRecorder{m: m, interval: interval, ts: ts}
	cm := &columnMaker{ts: ts}
	r.total = cm.col(TotalEntity, TotalGoodput)
	r.totalInFlight = cm.col(TotalEntity, TotalInFlight)
	for _, c := range m.clients {
		r.clCols = append(r.clCols, newClientColumns(cm, c.cfg.Name))
		h, err := newBucketSeries(c.cfg.Name, ClientLatencyHistogram)
		if err != nil {
			return nil, err
		}
		r.clHist = append(r.clHist, h)
	}
	for _, s := range m.services {
		r.svcCols = append(r.svcCols, newServiceColumns(cm, m, s))
		h, err := newBucketSeries(s.cfg.Name, ServiceSojournHistogram)
		if err != nil {
			return nil, err
		}
		r.svcHist = append(r.svcHist, h)
	}
	for _, site := range m.sites {
		r.siteCols = append(r.siteCols, newSiteColumns(cm, site))
	}
	return r, cm.err
}

func newClientColumns(cm *columnMaker, n string) clientColumns {
	return clientColumns{
		sent:     cm.col(n, ClientSent),
		goodput:  cm.col(n, ClientGoodput),
		degraded: cm.col(n, ClientDegraded),
		failed:   cm.col(n, ClientFailed),
		p50:      cm.col(n, ClientLatencyP50),
		p99:      cm.col(n, ClientLatencyP99),
		outcome:  cm.col(n, ClientOutcomeP99),
	}
}

// newServiceColumns creates a service's columns: the common ones, then
// those of the policies it is configured with.
func newServiceColumns(cm *columnMaker, m *Model, s *service) serviceColumns {
	n := s.cfg.Name
	sc := serviceColumns{
		arrivals:      cm.col(n, ServiceArrivals),
		throughput:    cm.col(n, ServiceThroughput),
		rejected:      cm.col(n, ServiceRejected),
		dropped:       cm.col(n, ServiceDropped),
		errors:        cm.col(n, ServiceErrors),
		degraded:      cm.col(n, ServiceDegraded),
		inSystem:      cm.col(n, ServiceInSystem),
		queue:         cm.col(n, ServiceQueueLength),
		queueAge:      cm.col(n, ServiceQueueAge),
		busy:          cm.col(n, ServiceBusyWorkers),
		workers:       cm.col(n, ServiceWorkers),
		mean:          cm.col(n, ServiceLatencyMean),
		p50:           cm.col(n, ServiceLatencyP50),
		p90:           cm.col(n, ServiceLatencyP90),
		p99:           cm.col(n, ServiceLatencyP99),
		p999:          cm.col(n, ServiceLatencyP999),
		wasted:        cm.col(n, ServiceWastedWork),
		amplification: cm.col(n, ServiceAmplification),
	}
	if m.propagate && s.cfg.Abandonment == AtDequeue {
		sc.expired = cm.col(n, ServiceExpiredInQueue)
	}
	if s.cache != nil {
		sc.cacheHit = cm.col(n, ServiceCacheHitRatio)
	}
	a := &s.cfg.Admission
	if a.Shed != nil {
		sc.shed = cm.col(n, ServiceShed)
	}
	if a.Limit != nil {
		sc.limited = cm.col(n, ServiceLimited)
		sc.limit = cm.col(n, ServiceLimit)
	}
	if a.CoDel != nil || a.LIFO != nil {
		sc.queueDropped = cm.col(n, ServiceQueueDropped)
	}
	if s.cfg.Guards.Outlier != nil {
		sc.ejected = cm.col(n, ServiceEjected)
	}
	if s.cfg.Guards.Readiness != nil {
		sc.ready = cm.col(n, ServiceReady)
	}
	if s.cfg.Cancellation != CancelNever {
		sc.cancelled = cm.col(n, ServiceCancelled)
	}
	return sc
}

// newSiteColumns creates a call site's columns: its attempts, which every
// site has (the call graph's edges and rates), and those of its guards and
// retry policy.
func newSiteColumns(cm *columnMaker, site *callSite) siteColumns {
	g := &site.guards
	n := site.name()
	sc := siteColumns{site: site}
	if g.breaker != nil {
		sc.breaker = cm.col(n, SiteBreakerState)
		sc.shortCircuited = cm.col(n, SiteShortCircuited)
		sc.opened = cm.col(n, SiteBreakerOpened)
	}
	if g.bulkhead != nil {
		sc.bulkheadFull = cm.col(n, SiteBulkheadFull)
		sc.inUse = cm.col(n, SiteBulkheadInUse)
	}
	if g.fallback != nil {
		sc.fallback = cm.col(n, SiteFallback)
		sc.fallbackFailed = cm.col(n, SiteFallbackFailed)
	}
	sc.attempts = cm.col(n, SiteAttempts)
	if site.retry != nil {
		sc.retries = cm.col(n, SiteRetries)
		sc.retriesDenied = cm.col(n, SiteRetriesDenied)
	}
	if g.budget != nil {
		sc.tokens = cm.col(n, SiteBudgetTokens)
	}
	return sc
}

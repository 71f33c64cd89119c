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
}

// serviceColumns are one service's time-series columns.
type serviceColumns struct {
	arrivals, throughput, rejected, dropped, errors, degraded *metrics.Column
	inSystem, queue, busy                                     *metrics.Column
	expired                                                   *metrics.Column // AtDequeue with deadlines only
	p50, p90, p99, p999, mean                                 *metrics.Column
	wasted, amplification                                     *metrics.Column
	cacheHit                                                  *metrics.Column
	shed, limited, queueDropped, limit, ejected, ready        *metrics.Column
}

// siteColumns are a guarded call site's columns.
type siteColumns struct {
	site                                            *callSite
	breaker, shortCircuited, bulkheadFull, fallback *metrics.Column
	opened, inUse, attempts                         *metrics.Column
	tokens, retries, retriesDenied                  *metrics.Column
}

// clientColumns are one client's time-series columns.
type clientColumns struct {
	sent, goodput, degraded, failed, p50, p99, outcome *metrics.Column
}

// TotalEntity is the time-series entity that sums over all clients.
const TotalEntity = "all_clients"

func newSeriesRecorder(m *Model, interval time.Duration) (*seriesRecorder, error) {
	ts, err := metrics.NewTimeSeries(interval)
	if err != nil {
		return nil, err
	}
	r := &seriesRecorder{m: m, interval: interval, ts: ts}
	var firstErr error
	col := func(entity string, k SeriesKey) *metrics.Column {
		c, err := ts.Column(entity, k.Name, k.Unit)
		if err != nil && firstErr == nil {
			firstErr = err
		}
		return c
	}
	r.total = col(TotalEntity, TotalGoodput)
	r.totalInFlight = col(TotalEntity, TotalInFlight)
	for _, c := range m.clients {
		n := c.cfg.Name
		r.clCols = append(r.clCols, clientColumns{
			sent:     col(n, ClientSent),
			goodput:  col(n, ClientGoodput),
			degraded: col(n, ClientDegraded),
			failed:   col(n, ClientFailed),
			p50:      col(n, ClientLatencyP50),
			p99:      col(n, ClientLatencyP99),
			outcome:  col(n, ClientOutcomeP99),
		})
	}
	for _, s := range m.services {
		n := s.cfg.Name
		sc := serviceColumns{
			arrivals:      col(n, ServiceArrivals),
			throughput:    col(n, ServiceThroughput),
			rejected:      col(n, ServiceRejected),
			dropped:       col(n, ServiceDropped),
			errors:        col(n, ServiceErrors),
			degraded:      col(n, ServiceDegraded),
			inSystem:      col(n, ServiceInSystem),
			queue:         col(n, ServiceQueueLength),
			busy:          col(n, ServiceBusyWorkers),
			mean:          col(n, ServiceLatencyMean),
			p50:           col(n, ServiceLatencyP50),
			p90:           col(n, ServiceLatencyP90),
			p99:           col(n, ServiceLatencyP99),
			p999:          col(n, ServiceLatencyP999),
			wasted:        col(n, ServiceWastedWork),
			amplification: col(n, ServiceAmplification),
		}
		if m.propagate && s.cfg.Abandonment == AtDequeue {
			sc.expired = col(n, ServiceExpiredInQueue)
		}
		if s.cache != nil {
			sc.cacheHit = col(n, ServiceCacheHitRatio)
		}
		a := &s.cfg.Admission
		if a.Shed != nil {
			sc.shed = col(n, ServiceShed)
		}
		if a.Limit != nil {
			sc.limited = col(n, ServiceLimited)
			sc.limit = col(n, ServiceLimit)
		}
		if a.CoDel != nil || a.LIFO != nil {
			sc.queueDropped = col(n, ServiceQueueDropped)
		}
		if s.cfg.Guards.Outlier != nil {
			sc.ejected = col(n, ServiceEjected)
		}
		if s.cfg.Guards.Readiness != nil {
			sc.ready = col(n, ServiceReady)
		}
		r.svcCols = append(r.svcCols, sc)
	}
	for _, site := range m.sites {
		g := &site.guards
		if g.breaker == nil && g.bulkhead == nil && g.budget == nil && g.fallback == nil && site.retry == nil {
			continue
		}
		n := site.name()
		sc := siteColumns{site: site}
		if g.breaker != nil {
			sc.breaker = col(n, SiteBreakerState)
			sc.shortCircuited = col(n, SiteShortCircuited)
			sc.opened = col(n, SiteBreakerOpened)
		}
		if g.bulkhead != nil {
			sc.bulkheadFull = col(n, SiteBulkheadFull)
			sc.inUse = col(n, SiteBulkheadInUse)
		}
		if g.fallback != nil {
			sc.fallback = col(n, SiteFallback)
		}
		if site.retry != nil {
			sc.attempts = col(n, SiteAttempts)
			sc.retries = col(n, SiteRetries)
			sc.retriesDenied = col(n, SiteRetriesDenied)
		}
		if g.budget != nil {
			sc.tokens = col(n, SiteBudgetTokens)
		}
		r.siteCols = append(r.siteCols, sc)
	}
	return r, firstErr
}

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
	r.m.at(r.next(0), r, nil)
}

// next returns the end of the interval starting at t.
func (r *seriesRecorder) next(t engine.Time) engine.Time {
	return min(t.Add(r.interval), r.m.end)
}

func msQ(h *metrics.Histogram, q float64) float64 { return float64(h.Quantile(q)) / 1e6 }

// Handle closes the interval [r.last, now).
func (r *seriesRecorder) Handle(now engine.Time, _ any) {
	if err := r.ts.AppendInterval(int64(r.last), int64(now)); err != nil {
		r.err = err
		r.m.sim.Stop()
		return
	}
	span := now.Sub(r.last).Seconds()
	dt := float64(now - r.last)
	var good float64
	var sent, goodN uint64
	for i, c := range r.m.clients {
		k := &c.st.iv
		cc := &r.clCols[i]
		g := float64(k[kGood]) / span
		good += g
		goodN += k[kGood]
		sent += k[kSent]
		cc.sent.Set(float64(k[kSent]) / span)
		cc.goodput.Set(g)
		cc.degraded.Set(float64(k[kDegraded]) / span)
		cc.failed.Set(float64(k[kLate]+k[kExpired]+k[kError]+k[kRejected]+k[kDropped]) / span)
		if h := &c.st.ivLatency; h.Count() > 0 {
			cc.p50.Set(msQ(h, 0.50))
			cc.p99.Set(msQ(h, 0.99))
		}
		switch {
		case c.st.ivFailed.Count() == 0:
			if h := &c.st.ivLatency; h.Count() > 0 {
				cc.outcome.Set(msQ(h, 0.99)) // every outcome was an answer
			}
		default:
			h := &r.scratch
			h.Reset()
			h.Merge(&c.st.ivLatency)
			h.Merge(&c.st.ivFailed)
			cc.outcome.Set(msQ(h, 0.99))
		}
		*k = [numClCounters]uint64{}
		c.st.ivLatency.Reset()
		c.st.ivFailed.Reset()
	}
	r.total.Set(good)
	r.good = append(r.good, goodN)
	r.inFlight = append(r.inFlight, r.m.inFlight)
	r.totalInFlight.Set(float64(r.m.inFlight))
	for i, s := range r.m.services {
		st := &s.st
		k := &st.iv
		c := &r.svcCols[i]
		a := st.areas(now)
		c.arrivals.Set(float64(k[cOffered]) / span)
		c.throughput.Set(float64(k[cCompleted]) / span)
		c.rejected.Set(float64(k[cRejected]) / span)
		c.dropped.Set(float64(k[cDropped]) / span)
		c.errors.Set(float64(k[cError]+k[cDepFailed]+k[cKilled]) / span)
		c.degraded.Set(float64(k[cDegraded]) / span)
		c.inSystem.Set((a[aInSystem] - st.ivArea[aInSystem]) / dt)
		c.queue.Set((a[aQueue] - st.ivArea[aQueue]) / dt)
		c.busy.Set((a[aBusy] - st.ivArea[aBusy]) / dt)
		if c.expired != nil {
			c.expired.Set((a[aExpired] - st.ivArea[aExpired]) / dt)
		}
		c.wasted.Set(float64(st.ivWastedNs) / dt)
		if sent > 0 {
			c.amplification.Set(float64(k[cOffered]) / float64(sent))
		}
		if h := &st.ivSojourn; h.Count() > 0 {
			c.mean.Set(h.Mean() / 1e6)
			c.p50.Set(msQ(h, 0.50))
			c.p90.Set(msQ(h, 0.90))
			c.p99.Set(msQ(h, 0.99))
			c.p999.Set(msQ(h, 0.999))
		}
		if c.cacheHit != nil {
			c.cacheHit.Set(s.cache.hitRatio())
		}
		if c.shed != nil {
			c.shed.Set(float64(k[cShed]) / span)
		}
		if c.limited != nil {
			c.limited.Set(float64(k[cLimited]) / span)
			sum := 0
			for _, in := range s.insts {
				sum += in.adm.limit.Limit()
			}
			c.limit.Set(float64(sum) / float64(len(s.insts)))
		}
		if c.queueDropped != nil {
			c.queueDropped.Set(float64(k[cQueueDropped]) / span)
		}
		if c.ejected != nil || c.ready != nil {
			ej, rd := 0, 0
			for _, in := range s.insts {
				if in.ejected {
					ej++
				}
				if in.ready {
					rd++
				}
			}
			if c.ejected != nil {
				c.ejected.Set(float64(ej))
			}
			if c.ready != nil {
				c.ready.Set(float64(rd))
			}
		}
		*k = [numSvcCounters]uint64{}
		st.ivSojourn.Reset()
		st.ivWastedNs = 0
		st.ivArea = a
	}
	for i := range r.siteCols {
		sc := &r.siteCols[i]
		site := sc.site
		g := &site.guards
		k := &site.st.iv
		if sc.breaker != nil {
			sc.breaker.Set(breakerLevel(g.breaker.State(now.Duration())))
			sc.shortCircuited.Set(float64(k[sShortCircuited]) / span)
			sc.opened.Set(float64(k[sBreakerOpened]) / span)
		}
		if sc.bulkheadFull != nil {
			sc.bulkheadFull.Set(float64(k[sBulkheadFull]) / span)
			sc.inUse.Set(float64(g.bulkhead.InUse()))
		}
		if sc.fallback != nil {
			sc.fallback.Set(float64(k[sFallback]) / span)
		}
		if sc.retries != nil {
			sc.attempts.Set(float64(k[sAttempts]) / span)
			sc.retries.Set(float64(k[sRetries]) / span)
			sc.retriesDenied.Set(float64(k[sRetryDenied]) / span)
		}
		if sc.tokens != nil {
			sc.tokens.Set(g.budget.Tokens())
		}
	}
	for _, site := range r.m.sites {
		site.st.iv = [numSiteCounters]uint64{}
	}
	r.last = now
	if f := r.m.progress; f != nil {
		f(now.Duration(), r.m.end.Duration())
	}
	if now < r.m.end {
		r.m.at(r.next(now), r, nil)
	}
}

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

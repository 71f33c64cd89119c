package topology

import (
	"time"

	"github.com/ressim/ressim/sim/metrics"
	"github.com/ressim/ressim/sim/policies/retry"
)

// Result is what one run measured. Counts cover the measurement window
// [Warmup, Duration) unless said otherwise.
type Result struct {
	Name     string
	Seed     uint64
	Duration time.Duration
	Warmup   time.Duration
	// Events is the number of engine events fired.
	Events uint64
	// UserRequests is the number of end-user requests sent in the window,
	// over all clients: the denominator of amplification.
	UserRequests uint64
	// Services, Clients and Calls in declaration order.
	Services []ServiceResult
	Clients  []ClientResult
	Calls    []CallResult
	// InFlightAtEnd is the user requests still unanswered when the run
	// ended, over all clients; PeakInFlight the most at any moment after
	// the warm-up.
	InFlightAtEnd, PeakInFlight int64
	// Faults in declaration order, with their recovery verdicts.
	Faults []FaultResult
	// Series is the per-interval time series of the whole run.
	Series *metrics.TimeSeries
	// EventLog is the run's state changes (breakers, probes, ejections,
	// readiness, liveness, limits), as they happened, over the whole run.
	EventLog EventLog
	// Actions are the timed actions that ran (ActionConfig), in the order
	// they ran, with the values they changed; nil without actions.
	Actions []ActionResult

	// Histograms are the latency histograms per interval of Series, at
	// LatencyBucketBounds: each client's (ClientLatencyHistogram), then
	// each service's (ServiceSojournHistogram), in declaration order. Nil
	// unless the model was told to record them
	// (Model.RecordHistogramSeries).
	Histograms []HistogramSeries

	trace *tracer
}

// ServiceResult is one service's statistics over the window, summed over
// its instances.
type ServiceResult struct {
	Name      string
	Instances int
	// Workers is the workers (Threads) or slots (Async) per instance at
	// the end of the run: the configured value, unless a timed action
	// changed it.
	Workers int
	Async   bool
	// InstanceArrivals splits Arrivals by instance.
	InstanceArrivals []uint64
	// Arrivals counts attempts that reached an instance; Admitted those
	// given a worker or a queue place; Rejected those refused (queue full,
	// or no instance up); Dropped those dropped because their propagated
	// deadline had passed: at dequeue, or while waiting (OnExpiry).
	Arrivals, Admitted, Rejected, Dropped uint64
	// Completed counts finished handlers: OK + Degraded + Errors +
	// DependencyFailed.
	Completed, OK, Degraded, Errors, DependencyFailed uint64
	// Shed, Limited and QueueDropped count requests refused by load
	// shedding and by the concurrency limit, and dropped from the queue by
	// CoDel or adaptive LIFO; Ejections counts outlier ejections.
	Shed, Limited, QueueDropped, Ejections uint64
	// Restarts counts instances restarted by their liveness probe.
	Restarts uint64
	// Killed counts requests lost in crashes; TimedOut the attempts to
	// this service that their callers timed out; Wasted the handlers that
	// completed for a caller that had stopped waiting.
	Killed, TimedOut, Wasted uint64
	// Cancelled counts the requests the service stopped for a
	// cancellation (ServiceConfig.Cancellation): handlers cut short, and
	// queued requests dropped because their caller was gone. Always 0
	// with CancelNever. Their work after the caller gave up is in
	// WastedWork.
	Cancelled uint64
	// Delayed counts the requests among Sojourn's that waited in the queue.
	Delayed uint64
	// InFlightAtEnd is the number of requests in the service when the run
	// ended.
	InFlightAtEnd int
	// Throughput is Completed per second of window.
	Throughput float64
	// Sojourn (arrival to response), Wait (in the queue) and Service
	// (holding a worker) over requests that arrived in the window and
	// completed before the end.
	Sojourn, Wait, Service *metrics.Histogram
	// Time averages over the window of the live requests in the service,
	// waiting, and in service; Utilization is MeanBusy over the
	// provisioned capacity, workers times instances in rotation: the
	// configured capacity, or its time average over the window when
	// timed actions changed the workers or the instances (faults do not
	// change it). A request whose propagated deadline passed
	// while it waited is no longer live: it counts in MeanExpiredInQueue.
	MeanInSystem, MeanQueue, MeanBusy, Utilization float64
	// MeanExpiredInQueue is the time average of the requests that still
	// hold a queue place although their deadline has passed (abandonment
	// at_dequeue: they leave only when they reach the head). Always 0
	// with on_expiry or without propagated deadlines.
	MeanExpiredInQueue float64
	// WastedWork is the worker time spent on requests nobody waited for:
	// the whole handler of each Wasted completion, and, for a Cancelled
	// handler, the part after its caller gave up (or its deadline passed).
	WastedWork time.Duration
	// Amplification is Arrivals per end-user request.
	Amplification float64
	// Cache is the look-aside cache's state, if the service has one.
	Cache *CacheResult
}

// CacheResult describes a service's look-aside cache.
type CacheResult struct {
	// Hits and Misses over the whole run.
	Hits, Misses uint64
	// HitRatioAtEnd is the probability of a hit when the run ended.
	HitRatioAtEnd float64
}

// ClientResult is one client's statistics over the window.
type ClientResult struct {
	Name, Target string
	// Sent counts user requests sent. Each ends as one of: Good (a full
	// answer within the deadline), Degraded (a degraded answer within the
	// deadline), Late (an answer after it), Expired (no answer by the
	// deadline), Errors, Rejected, Dropped; or is still in flight.
	Sent, Good, Degraded, Late, Expired, Errors, Rejected, Dropped uint64
	// Goodput is Good per second of window; DegradedRate the same for
	// Degraded.
	Goodput, DegradedRate float64
	// Latency of answered requests (Good, Degraded and Late), from the
	// intended send time. It has survivor bias: a request never answered
	// is not in it.
	Latency *metrics.Histogram
	// OutcomeLatency is the time from the intended send time to the
	// outcome of every user request sent in the window, whatever the
	// outcome (an answer, a failure, the user giving up); a request still
	// in flight at the end enters with its age then, a lower bound.
	OutcomeLatency *metrics.Histogram
	// InFlightAtEnd is the requests still unanswered at the end (sent at
	// any time); PeakInFlight the most at any moment after the warm-up.
	InFlightAtEnd, PeakInFlight int64
	// Schedule is the client's configured rate over time (open loop), or
	// nil for a constant rate or a closed loop.
	Schedule []RatePoint
	// SentGood counts the requests sent in the window that got a full
	// answer within the deadline (by the end of the run). SentGood / Sent
	// is the goodput share: unlike Good / Sent it follows one cohort of
	// requests, so it never exceeds 1.
	SentGood uint64
}

// CallResult is one call site's statistics: calls from Caller to
// Callee's Operation ("client:NAME" for a client's calls).
type CallResult struct {
	Caller, Callee, Operation string
	// Calls started; Attempts sent (first tries and Retries); attempt
	// outcomes; CacheHits answered by the callee's cache; RetryDenied
	// failed attempts not retried; Failed calls that failed in the end.
	Calls, Attempts, Retries, OK, Timeouts, Errors, Rejected, Dropped, CacheHits, RetryDenied, Failed uint64
	// DeniedBy breaks RetryDenied down by the retry policy's reason.
	DeniedBy map[string]uint64
	// ShortCircuited calls refused by an open breaker (RetriesIntoOpen of
	// them retries, with the breaker inside the retry loop);
	// BreakerOpened its trips; BulkheadFull calls refused a slot;
	// Fallbacks failed calls answered by the fallback.
	ShortCircuited, RetriesIntoOpen, BreakerOpened, BulkheadFull, Fallbacks uint64
	// Hedges are the extra copies a hedged call sent (Attempts counts
	// them too); HedgesLost the copies cancelled because another copy
	// answered first or failed fatally.
	Hedges, HedgesLost uint64
	// Killed calls were skipped by a kill switch; FallbackFailed fallbacks
	// failed too.
	Killed, FallbackFailed uint64
	// FallbackLevel is the level the site's fallback serves (stale,
	// generic or empty: package fallback's Level names), or "" without a
	// fallback.
	FallbackLevel string
}

// FaultResult is a fault and whether the system recovered from it.
type FaultResult struct {
	Kind, Target, Label string
	Start, End          time.Duration
	Recovery            Recovery
}

// head is the part of a result that result and Live share: the run's
// identity, its events so far, its series and event log.
func (m *Model) head() *Result {
	return &Result{
		Name:     m.cfg.Name,
		Seed:     m.cfg.Seed,
		Duration: m.cfg.Duration,
		Warmup:   m.cfg.Warmup,
		Events:   m.sim.Fired(),
		Series:   m.series.ts,
		EventLog: m.events,
		Actions:  m.actionLog,
	}
}

func (m *Model) result() *Result {
	for _, c := range m.clients {
		c.st.ivLatency.flush(&c.st.latency)
		c.st.ivFailed.flush(&c.st.failed)
	}
	for _, s := range m.services {
		s.st.ivSojourn.flush(&s.st.sojourn)
	}
	res := m.head()
	res.Histograms = m.series.histograms()
	res.trace = m.trace
	if m.trace != nil {
		m.trace.stop = m.end
	}
	for _, c := range m.clients {
		res.UserRequests += c.st.win[kSent]
	}
	for _, s := range m.services {
		res.Services = append(res.Services, m.serviceResult(s, res.UserRequests))
	}
	res.InFlightAtEnd, res.PeakInFlight = m.inFlight, m.peak
	res.Clients = m.clientResults()
	for _, s := range m.sites {
		res.Calls = append(res.Calls, s.result())
	}
	for _, f := range m.faults {
		res.Faults = append(res.Faults, FaultResult{
			Kind: f.cfg.Kind.String(), Target: f.cfg.Target, Label: f.label(),
			Start: f.cfg.Start, End: f.cfg.End,
			Recovery: m.series.recovery(f.cfg),
		})
	}
	return res
}

// serviceResult is s's part of the result; users is the number of user
// requests sent in the window, for the amplification.
func (m *Model) serviceResult(s *service, users uint64) ServiceResult {
	w := m.window()
	st := &s.st
	a := st.areas(m.end)
	mean := func(i int) float64 { return (a[i] - st.warmArea[i]) / float64(w) }
	inFlight := 0
	for _, in := range s.insts {
		inFlight += in.busy + in.queueLen()
	}
	c := &st.win
	r := ServiceResult{
		Name:               s.cfg.Name,
		Instances:          len(s.insts),
		Workers:            s.workers,
		Async:              s.cfg.Mode == Async,
		Arrivals:           c[cOffered],
		Admitted:           c[cAdmitted],
		Rejected:           c[cRejected],
		Dropped:            c[cDropped],
		Completed:          c[cCompleted],
		OK:                 c[cOK],
		Degraded:           c[cDegraded],
		Errors:             c[cError],
		DependencyFailed:   c[cDepFailed],
		Killed:             c[cKilled],
		TimedOut:           c[cTimedOut],
		Wasted:             c[cWasted],
		Cancelled:          c[cCancelled],
		Shed:               c[cShed],
		Limited:            c[cLimited],
		QueueDropped:       c[cQueueDropped],
		Delayed:            st.delayed,
		InFlightAtEnd:      inFlight,
		Throughput:         float64(c[cCompleted]) / w.Seconds(),
		Sojourn:            &st.sojourn,
		Wait:               &st.wait,
		Service:            &st.hold,
		MeanInSystem:       mean(aInSystem),
		MeanQueue:          mean(aQueue),
		MeanBusy:           mean(aBusy),
		MeanExpiredInQueue: mean(aExpired),
		WastedWork:         time.Duration(st.wastedNs),
	}
	s.resultExtras(&r, users)
	return r
}

// resultExtras fills the parts of s's result that depend on its optional
// parts: instances, cache, outlier detection, probes.
func (s *service) resultExtras(r *ServiceResult, users uint64) {
	for _, in := range s.insts {
		r.InstanceArrivals = append(r.InstanceArrivals, in.arrivals)
	}
	r.Utilization = r.MeanBusy / s.provisioned()
	if users > 0 {
		r.Amplification = float64(r.Arrivals) / float64(users)
	}
	if s.outlier != nil {
		r.Ejections = s.outlier.ejections
	}
	if s.watch != nil {
		r.Restarts = s.watch.restarts
	}
	if ca := s.cache; ca != nil {
		r.Cache = &CacheResult{Hits: ca.hits, Misses: ca.misses, HitRatioAtEnd: ca.hitRatio()}
	}
}

// clientResults are the clients' parts of the result.
func (m *Model) clientResults() []ClientResult {
	w := m.window()
	outcome := m.outcomeLatency()
	var out []ClientResult
	for i, c := range m.clients {
		k := &c.st.win
		out = append(out, ClientResult{
			OutcomeLatency: outcome[i], InFlightAtEnd: c.st.inFlight, PeakInFlight: c.st.peak,
			SentGood: c.st.cohortGood, Schedule: c.cfg.Schedule,
			Name: c.cfg.Name, Target: c.cfg.Target,
			Sent: k[kSent], Good: k[kGood], Degraded: k[kDegraded], Late: k[kLate],
			Expired: k[kExpired], Errors: k[kError], Rejected: k[kRejected], Dropped: k[kDropped],
			Goodput:      float64(k[kGood]) / w.Seconds(),
			DegradedRate: float64(k[kDegraded]) / w.Seconds(),
			Latency:      &c.st.latency,
		})
	}
	return out
}

// result is the call site's part of the result.
func (s *callSite) result() CallResult {
	k := &s.st.win
	cr := CallResult{
		Caller: s.caller, Callee: s.callee, Operation: s.op,
		Calls: k[sCalls], Attempts: k[sAttempts], Retries: k[sRetries], OK: k[sOK],
		Timeouts: k[sTimeouts], Errors: k[sErrors], Rejected: k[sRejected], Dropped: k[sDropped],
		CacheHits: k[sCacheHits], RetryDenied: k[sRetryDenied], Failed: k[sFailed],
		ShortCircuited: k[sShortCircuited], RetriesIntoOpen: k[sRetryIntoOpen],
		BreakerOpened: k[sBreakerOpened], BulkheadFull: k[sBulkheadFull], Fallbacks: k[sFallback],
		Killed: k[sKilled], FallbackFailed: k[sFallbackFailed],
		Hedges: k[sHedges], HedgesLost: k[sHedgeLost],
	}
	if f := s.guards.fallback; f != nil {
		cr.FallbackLevel = f.Level.String()
	}
	for reason, n := range s.st.denied {
		if n > 0 {
			if cr.DeniedBy == nil {
				cr.DeniedBy = map[string]uint64{}
			}
			cr.DeniedBy[retry.Reason(reason).String()] = n
		}
	}
	return cr
}

// outcomeLatency returns each client's outcome latency: the recorded
// outcomes, and the requests sent in the window that are still in flight
// at the end, at their age then.
func (m *Model) outcomeLatency() []*metrics.Histogram {
	out := make([]*metrics.Histogram, len(m.clients))
	idx := make(map[*client]int, len(m.clients))
	for i, c := range m.clients {
		out[i] = &metrics.Histogram{}
		out[i].Merge(&c.st.latency)
		out[i].Merge(&c.st.failed)
		idx[c] = i
	}
	for u := m.live.head; u != nil; u = u.succ {
		if u.measured {
			out[idx[u.client]].Record(int64(m.end - u.sent))
		}
	}
	return out
}

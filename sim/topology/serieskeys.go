package topology

// The time-series metric contract: every column a run records is named by
// one SeriesKey below, and every reader (the time-series writer, the
// figures, the docs table) names it through the same value. Renaming a
// metric is then one edit: the Go identifier is checked by the compiler,
// the name by TestSeriesKeysRecorded and TestSeriesKeysDocumented.

// SeriesOwner says what kind of entity carries a time-series metric.
type SeriesOwner uint8

const (
	// OwnerTotal is the all-clients aggregate, entity TotalEntity.
	OwnerTotal SeriesOwner = iota
	// OwnerClient is a client, entity its name.
	OwnerClient
	// OwnerService is a service, entity its name.
	OwnerService
	// OwnerSite is a call site, entity "caller->callee/operation".
	OwnerSite
)

// String names the owner as the docs' time-series table does.
func (o SeriesOwner) String() string {
	return [...]string{"all_clients", "client", "service", "call site"}[o]
}

// SeriesKey names one time-series metric: the metric column of
// timeseries.csv, its unit, and what carries it.
type SeriesKey struct {
	Name  string
	Unit  string
	Owner SeriesOwner
}

// The time-series metrics, by owner. Rates are events in the interval
// over its length; levels are time averages over it, or the value at the
// interval's end where said.
var (
	TotalGoodput  = SeriesKey{"goodput", "req/s", OwnerTotal}
	TotalInFlight = SeriesKey{"in_flight", "requests", OwnerTotal} // at the interval's end

	ClientSent       = SeriesKey{"sent", "req/s", OwnerClient}
	ClientGoodput    = SeriesKey{"goodput", "req/s", OwnerClient}
	ClientDegraded   = SeriesKey{"degraded", "req/s", OwnerClient}
	ClientFailed     = SeriesKey{"failed", "req/s", OwnerClient}
	ClientLatencyP50 = SeriesKey{"latency_p50", "ms", OwnerClient}
	ClientLatencyP99 = SeriesKey{"latency_p99", "ms", OwnerClient}
	ClientOutcomeP99 = SeriesKey{"outcome_latency_p99", "ms", OwnerClient}

	ServiceArrivals       = SeriesKey{"arrivals", "req/s", OwnerService}
	ServiceThroughput     = SeriesKey{"throughput", "req/s", OwnerService}
	ServiceRejected       = SeriesKey{"rejected", "req/s", OwnerService}
	ServiceDropped        = SeriesKey{"dropped", "req/s", OwnerService}
	ServiceErrors         = SeriesKey{"errors", "req/s", OwnerService}
	ServiceDegraded       = SeriesKey{"degraded", "req/s", OwnerService}
	ServiceInSystem       = SeriesKey{"in_system", "requests", OwnerService}
	ServiceQueueLength    = SeriesKey{"queue_length", "requests", OwnerService}
	ServiceQueueAge       = SeriesKey{"queue_age", "ms", OwnerService} // at the interval's end
	ServiceExpiredInQueue = SeriesKey{"expired_in_queue", "requests", OwnerService}
	ServiceBusyWorkers    = SeriesKey{"busy_workers", "workers", OwnerService}
	ServiceWorkers        = SeriesKey{"workers", "workers", OwnerService}
	ServiceLatencyMean    = SeriesKey{"latency_mean", "ms", OwnerService}
	ServiceLatencyP50     = SeriesKey{"latency_p50", "ms", OwnerService}
	ServiceLatencyP90     = SeriesKey{"latency_p90", "ms", OwnerService}
	ServiceLatencyP99     = SeriesKey{"latency_p99", "ms", OwnerService}
	ServiceLatencyP999    = SeriesKey{"latency_p999", "ms", OwnerService}
	ServiceWastedWork     = SeriesKey{"wasted_work", "workers", OwnerService}
	ServiceAmplification  = SeriesKey{"amplification", "attempts/request", OwnerService}
	ServiceCacheHitRatio  = SeriesKey{"cache_hit_ratio", "ratio", OwnerService}
	ServiceShed           = SeriesKey{"shed", "req/s", OwnerService}
	ServiceLimited        = SeriesKey{"limited", "req/s", OwnerService}
	ServiceLimit          = SeriesKey{"concurrency_limit", "requests", OwnerService}
	ServiceQueueDropped   = SeriesKey{"queue_dropped", "req/s", OwnerService}
	ServiceEjected        = SeriesKey{"ejected_instances", "instances", OwnerService}
	ServiceReady          = SeriesKey{"ready_instances", "instances", OwnerService}
	ServiceCancelled      = SeriesKey{"cancelled", "req/s", OwnerService}

	SiteBreakerState   = SeriesKey{"breaker_state", "0 closed, 1 half-open, 2 open", OwnerSite}
	SiteShortCircuited = SeriesKey{"short_circuited", "calls/s", OwnerSite}
	SiteBreakerOpened  = SeriesKey{"breaker_opened", "opens/s", OwnerSite}
	SiteBulkheadFull   = SeriesKey{"bulkhead_full", "calls/s", OwnerSite}
	SiteBulkheadInUse  = SeriesKey{"bulkhead_in_use", "slots", OwnerSite} // at the interval's end
	SiteFallback       = SeriesKey{"fallback", "calls/s", OwnerSite}
	SiteFallbackFailed = SeriesKey{"fallback_failed", "calls/s", OwnerSite}
	SiteAttempts       = SeriesKey{"attempts", "attempts/s", OwnerSite}
	SiteRetries        = SeriesKey{"retries", "attempts/s", OwnerSite}
	SiteRetriesDenied  = SeriesKey{"retries_denied", "calls/s", OwnerSite}
	SiteBudgetTokens   = SeriesKey{"budget_tokens", "tokens", OwnerSite}
)

// SeriesKeys returns every time-series metric, in the order of the docs'
// table.
func SeriesKeys() []SeriesKey {
	return []SeriesKey{
		TotalGoodput, TotalInFlight,
		ClientSent, ClientGoodput, ClientDegraded, ClientFailed, ClientLatencyP50, ClientLatencyP99, ClientOutcomeP99,
		ServiceArrivals, ServiceThroughput, ServiceRejected, ServiceDropped, ServiceErrors, ServiceDegraded,
		ServiceInSystem, ServiceQueueLength, ServiceQueueAge, ServiceExpiredInQueue, ServiceBusyWorkers, ServiceWorkers,
		ServiceLatencyMean, ServiceLatencyP50, ServiceLatencyP90, ServiceLatencyP99, ServiceLatencyP999,
		ServiceWastedWork, ServiceAmplification, ServiceCacheHitRatio,
		ServiceShed, ServiceLimited, ServiceLimit, ServiceQueueDropped, ServiceEjected, ServiceReady, ServiceCancelled,
		SiteBreakerState, SiteShortCircuited, SiteBreakerOpened, SiteBulkheadFull, SiteBulkheadInUse, SiteFallback, SiteFallbackFailed, SiteAttempts, SiteRetries, SiteRetriesDenied, SiteBudgetTokens,
	}
}

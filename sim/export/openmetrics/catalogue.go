package openmetrics

import "github.com/ressim/ressim/sim/topology"

// Type is an OpenMetrics metric type.
type Type string

// The metric types the export uses.
const (
	Counter Type = "counter"
	Gauge   Type = "gauge"
	// Summary families here carry only quantile samples: the quantiles of
	// the requests finished in each interval, as a client library's
	// summary with a one-interval window reports them; no _sum or _count.
	Summary Type = "summary"
	// Histogram families carry _bucket (with le), _count and _sum
	// samples, cumulative from time 0, at topology.LatencyBucketBounds.
	Histogram Type = "histogram"
)

// Family is one exported metric family: its name (without the _total
// suffix a counter's samples carry), type, unit (the OpenMetrics UNIT, a
// suffix of the name, or empty), help text and the labels its samples
// carry.
type Family struct {
	Name, Help string
	Type       Type
	Unit       string
	Labels     []string
}

// Sample returns the name a sample of the family carries: Name_total for
// a counter, Name for a gauge, a summary and a histogram (whose samples
// add _bucket, _count and _sum).
func (f Family) Sample() string {
	if f.Type == Counter {
		return f.Name + "_total"
	}
	return f.Name
}

// Mapping says how one time-series column becomes samples of a family.
type Mapping struct {
	// Key is the time-series metric.
	Key topology.SeriesKey
	// Family is the exported family's name (a Families entry).
	Family string
	// Fixed are labels every sample of the column carries, as name/value
	// pairs ("outcome", "good").
	Fixed [][2]string
	// Scale multiplies the column's value: 1e-3 turns milliseconds into
	// seconds. For a counter the scaled rate is integrated over each
	// interval.
	Scale float64
	// Integer rounds each interval's integrated count to a whole number:
	// the column is a count over the interval divided by its length, so
	// the product recovers the count up to a rounding error.
	Integer bool
	// State, if set, exports the column (a breaker state encoded 0, 1, 2)
	// one-hot: one sample per state name, 1 for the current state.
	State []string
	// Level adds the label level, the call site's fallback level
	// (topology.CallResult.FallbackLevel: stale, generic or empty), after
	// the site's labels.
	Level bool
}

// HistogramMapping says which latency histogram of a run becomes which
// histogram family.
type HistogramMapping struct {
	Key    topology.HistogramKey
	Family string
}

// HistogramMappings returns the exported latency histograms, in the order
// of topology.HistogramKeys. The returned slice is new on every call.
func HistogramMappings() []HistogramMapping {
	return []HistogramMapping{
		{topology.ClientLatencyHistogram, "ressim_client_request_duration_seconds"},
		{topology.ServiceSojournHistogram, "ressim_service_request_duration_seconds"},
	}
}

// Label names.
const (
	lClient    = "client"
	lService   = "service"
	lCaller    = "caller"
	lOperation = "operation"
)

var siteLabels = []string{lCaller, lService, lOperation}

// Families returns the exported metric families, in the order they are
// written. The returned slice is new on every call.
func Families() []Family {
	c := []string{lClient}
	s := []string{lService}
	return []Family{
		{"ressim_in_flight_requests", "User requests sent and not yet answered, over all clients, at the end of each interval.", Gauge, "requests", nil},
		{"ressim_client_requests", "User requests sent by the client.", Counter, "", c},
		{"ressim_client_responses", "User requests finished, by outcome: good (a full answer within the deadline), degraded (a degraded answer within the deadline, an HTTP 200 that is not a full answer), failed (late, expired, error, rejected or dropped).", Counter, "", append(c, "outcome")},
		{"ressim_client_latency_seconds", "Quantiles of the latency of answered requests (good, degraded, late) finished in the interval.", Summary, "seconds", append(c, "quantile")},
		{"ressim_client_request_duration_seconds", "Histogram of the latency of answered requests (good, degraded, late), from the intended send time; the values of ressim_client_latency_seconds, bucketed.", Histogram, "seconds", c},
		{"ressim_client_outcome_latency_seconds", "Quantiles of the time to any outcome of requests finished in the interval.", Summary, "seconds", append(c, "quantile")},
		{"ressim_service_requests", "Attempts that reached an instance of the service (first tries and retries).", Counter, "", s},
		{"ressim_service_handled", "Handlers that finished (full, degraded or error answers).", Counter, "", s},
		{"ressim_service_errors", "Handlers that answered with an error (own errors, failed dependencies, crashes).", Counter, "", s},
		{"ressim_service_degraded", "Handlers that answered degraded (a fallback or a skipped non-critical call).", Counter, "", s},
		{"ressim_service_refused", "Attempts refused or dropped without a handler, by reason: rejected (queue full, or no instance up), deadline_passed (propagated deadline passed before a worker took it), shed (load shedding), limited (concurrency limit), queue_dropped (CoDel or adaptive LIFO).", Counter, "", append(s, "reason")},
		{"ressim_service_in_system_requests", "Time average over the interval of the live requests in the service.", Gauge, "requests", s},
		{"ressim_service_queue_requests", "Time average over the interval of the requests waiting in the queue.", Gauge, "requests", s},
		{"ressim_service_queue_oldest_age_seconds", "Age at the end of the interval of the oldest request waiting in any instance's queue (0 when empty): how long the head of the line has waited.", Gauge, "seconds", s},
		{"ressim_service_queue_expired_requests", "Time average over the interval of queued requests whose propagated deadline has passed (abandonment at_dequeue).", Gauge, "requests", s},
		{"ressim_service_busy_workers", "Time average over the interval of the workers (or async slots) in use: the in-flight work.", Gauge, "", s},
		{"ressim_service_workers", "Time average over the interval of the service's pool: the workers (or async slots) of its instances that are up, less those a workers fault removed; the bound of ressim_service_busy_workers.", Gauge, "", s},
		{"ressim_service_latency_seconds", "Quantiles of the sojourn time (arrival to response) of the requests that finished in the interval.", Summary, "seconds", append(s, "quantile")},
		{"ressim_service_request_duration_seconds", "Histogram of the sojourn time (arrival to response) of the requests that finished; the values of ressim_service_latency_seconds, bucketed.", Histogram, "seconds", s},
		{"ressim_service_latency_mean_seconds", "Mean sojourn time of the requests that finished in the interval.", Gauge, "seconds", s},
		{"ressim_service_wasted_work_seconds", "Worker time spent on requests nobody waited for any more.", Counter, "seconds", s},
		{"ressim_service_cancelled", "Handlers cut short, and queued requests dropped, because their caller was gone: a service whose cancellation is at_step or continuous.", Counter, "", s},
		{"ressim_service_amplification_ratio", "Attempts reaching the service per user request sent, in the interval.", Gauge, "ratio", s},
		{"ressim_service_cache_hit_ratio", "Probability of a cache hit at the end of the interval.", Gauge, "ratio", s},
		{"ressim_service_concurrency_limit_requests", "The adaptive concurrency limit at the end of the interval, mean over instances.", Gauge, "requests", s},
		{"ressim_service_ejected_instances", "Instances ejected by outlier detection at the end of the interval.", Gauge, "", s},
		{"ressim_service_ready_instances", "Instances passing their readiness probe at the end of the interval.", Gauge, "", s},
		{"ressim_breaker_state", "Circuit breaker state at the end of the interval, one-hot over state (closed, half_open, open).", Gauge, "", append(siteLabels, "state")},
		{"ressim_breaker_opened", "Transitions of the breaker to open: trips, and re-opens after failed half-open probes. The state gauge, sampled at interval ends, can miss a short half-open spell; this counter cannot.", Counter, "", siteLabels},
		{"ressim_call_rejected", "Calls refused before an attempt, by reason: breaker_open (short-circuited), bulkhead_full.", Counter, "", append(siteLabels, "reason")},
		{"ressim_bulkhead_in_use_slots", "Bulkhead slots held at the end of the interval.", Gauge, "slots", siteLabels},
		{"ressim_call_attempts", "Attempts sent by the call site: first tries, retries and hedged copies. Every call site has it, a client's (caller client:NAME) included: its series are the call graph's edges.", Counter, "", siteLabels},
		{"ressim_call_fallback", "Failed calls answered by the fallback (served degraded), by level: the site's fallback level (stale, generic, empty: package fallback's degradation hierarchy).", Counter, "", append(siteLabels, "level")},
		{"ressim_call_fallback_failed", "Failed calls whose fallback failed too (fail_rate): the call fails after all.", Counter, "", siteLabels},
		{"ressim_call_retries", "Retry attempts sent.", Counter, "", siteLabels},
		{"ressim_call_retries_denied", "Failed attempts not retried (budget empty, attempts exhausted, deadline, not retryable).", Counter, "", siteLabels},
		{"ressim_retry_budget_tokens", "Retry budget tokens at the end of the interval.", Gauge, "", siteLabels},
	}
}

// Mappings returns how every time-series metric is exported, in the
// order of topology.SeriesKeys; TotalGoodput and ClientGoodput's share of
// it are covered by ressim_client_responses_total{outcome="good"}, so the
// all-clients goodput column is not exported (it is the sum over
// clients). The returned slice is new on every call.
func Mappings() []Mapping {
	q := func(v string) [][2]string { return [][2]string{{"quantile", v}} }
	r := func(v string) [][2]string { return [][2]string{{"reason", v}} }
	o := func(v string) [][2]string { return [][2]string{{"outcome", v}} }
	const ms = 1e-3
	return []Mapping{
		{Key: topology.TotalInFlight, Family: "ressim_in_flight_requests", Scale: 1},
		{Key: topology.ClientSent, Family: "ressim_client_requests", Scale: 1, Integer: true},
		{Key: topology.ClientGoodput, Family: "ressim_client_responses", Fixed: o("good"), Scale: 1, Integer: true},
		{Key: topology.ClientDegraded, Family: "ressim_client_responses", Fixed: o("degraded"), Scale: 1, Integer: true},
		{Key: topology.ClientFailed, Family: "ressim_client_responses", Fixed: o("failed"), Scale: 1, Integer: true},
		{Key: topology.ClientLatencyP50, Family: "ressim_client_latency_seconds", Fixed: q("0.5"), Scale: ms},
		{Key: topology.ClientLatencyP99, Family: "ressim_client_latency_seconds", Fixed: q("0.99"), Scale: ms},
		{Key: topology.ClientOutcomeP99, Family: "ressim_client_outcome_latency_seconds", Fixed: q("0.99"), Scale: ms},
		{Key: topology.ServiceArrivals, Family: "ressim_service_requests", Scale: 1, Integer: true},
		{Key: topology.ServiceThroughput, Family: "ressim_service_handled", Scale: 1, Integer: true},
		{Key: topology.ServiceRejected, Family: "ressim_service_refused", Fixed: r("rejected"), Scale: 1, Integer: true},
		{Key: topology.ServiceDropped, Family: "ressim_service_refused", Fixed: r("deadline_passed"), Scale: 1, Integer: true},
		{Key: topology.ServiceErrors, Family: "ressim_service_errors", Scale: 1, Integer: true},
		{Key: topology.ServiceDegraded, Family: "ressim_service_degraded", Scale: 1, Integer: true},
		{Key: topology.ServiceInSystem, Family: "ressim_service_in_system_requests", Scale: 1},
		{Key: topology.ServiceQueueLength, Family: "ressim_service_queue_requests", Scale: 1},
		{Key: topology.ServiceQueueAge, Family: "ressim_service_queue_oldest_age_seconds", Scale: ms},
		{Key: topology.ServiceExpiredInQueue, Family: "ressim_service_queue_expired_requests", Scale: 1},
		{Key: topology.ServiceBusyWorkers, Family: "ressim_service_busy_workers", Scale: 1},
		{Key: topology.ServiceWorkers, Family: "ressim_service_workers", Scale: 1},
		{Key: topology.ServiceLatencyMean, Family: "ressim_service_latency_mean_seconds", Scale: ms},
		{Key: topology.ServiceLatencyP50, Family: "ressim_service_latency_seconds", Fixed: q("0.5"), Scale: ms},
		{Key: topology.ServiceLatencyP90, Family: "ressim_service_latency_seconds", Fixed: q("0.9"), Scale: ms},
		{Key: topology.ServiceLatencyP99, Family: "ressim_service_latency_seconds", Fixed: q("0.99"), Scale: ms},
		{Key: topology.ServiceLatencyP999, Family: "ressim_service_latency_seconds", Fixed: q("0.999"), Scale: ms},
		{Key: topology.ServiceWastedWork, Family: "ressim_service_wasted_work_seconds", Scale: 1},
		{Key: topology.ServiceCancelled, Family: "ressim_service_cancelled", Scale: 1, Integer: true},
		{Key: topology.ServiceAmplification, Family: "ressim_service_amplification_ratio", Scale: 1},
		{Key: topology.ServiceCacheHitRatio, Family: "ressim_service_cache_hit_ratio", Scale: 1},
		{Key: topology.ServiceShed, Family: "ressim_service_refused", Fixed: r("shed"), Scale: 1, Integer: true},
		{Key: topology.ServiceLimited, Family: "ressim_service_refused", Fixed: r("limited"), Scale: 1, Integer: true},
		{Key: topology.ServiceLimit, Family: "ressim_service_concurrency_limit_requests", Scale: 1},
		{Key: topology.ServiceQueueDropped, Family: "ressim_service_refused", Fixed: r("queue_dropped"), Scale: 1, Integer: true},
		{Key: topology.ServiceEjected, Family: "ressim_service_ejected_instances", Scale: 1},
		{Key: topology.ServiceReady, Family: "ressim_service_ready_instances", Scale: 1},
		{Key: topology.SiteBreakerState, Family: "ressim_breaker_state", Scale: 1, State: []string{"closed", "half_open", "open"}},
		{Key: topology.SiteBreakerOpened, Family: "ressim_breaker_opened", Scale: 1, Integer: true},
		{Key: topology.SiteShortCircuited, Family: "ressim_call_rejected", Fixed: r("breaker_open"), Scale: 1, Integer: true},
		{Key: topology.SiteBulkheadFull, Family: "ressim_call_rejected", Fixed: r("bulkhead_full"), Scale: 1, Integer: true},
		{Key: topology.SiteBulkheadInUse, Family: "ressim_bulkhead_in_use_slots", Scale: 1},
		{Key: topology.SiteFallback, Family: "ressim_call_fallback", Scale: 1, Integer: true, Level: true},
		{Key: topology.SiteFallbackFailed, Family: "ressim_call_fallback_failed", Scale: 1, Integer: true},
		{Key: topology.SiteAttempts, Family: "ressim_call_attempts", Scale: 1, Integer: true},
		{Key: topology.SiteRetries, Family: "ressim_call_retries", Scale: 1, Integer: true},
		{Key: topology.SiteRetriesDenied, Family: "ressim_call_retries_denied", Scale: 1, Integer: true},
		{Key: topology.SiteBudgetTokens, Family: "ressim_retry_budget_tokens", Scale: 1},
	}
}

// NotExported lists the time-series metrics without a family, with why.
func NotExported() map[topology.SeriesKey]string {
	m := make(map[topology.SeriesKey]string)
	for _, n := range notExportedOrdered() {
		m[n.key] = n.why
	}
	return m
}

type notExported struct {
	key topology.SeriesKey
	why string
}

func notExportedOrdered() []notExported {
	return []notExported{
		{topology.TotalGoodput, `the sum over clients of ressim_client_responses_total{outcome="good"}`},
	}
}

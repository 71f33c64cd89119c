package topology

// SeriesColumns is the number of time-series columns a run of c records
// (Result.Series), known from the configuration alone: len(SeriesLabels).
// runner.Estimate counts series points with it; TestSeriesColumnsMatchModel
// and runner's TestEstimateBothWays hold it to the columns built models
// really have.
func (c *Config) SeriesColumns() int { return len(c.SeriesLabels()) }

// SeriesLabel names one time-series column: its entity and metric.
type SeriesLabel struct {
	Entity string
	Key    SeriesKey
}

// SeriesLabels returns the columns a run of c records, in the order it
// records them: the totals, each client's, each service's with those of
// its policies, and each call site's (the services' sites, then
// the clients'), by the rules of newSeriesRecorder. runner.Estimate
// counts the bytes of timeseries.csv with their names.
//
// A column is one (entity, metric): metrics.TimeSeries.Column returns the
// existing column for a pair already registered. So the columns are the
// distinct pairs, not a sum per entity: two call sites with one name (two
// steps, or two elements of a parallel step, calling the same callee and
// operation from the same caller; an operation named "call" beside the
// default one) record into the same columns, and so do a client and a
// service with the same name for the metrics they share (degraded,
// latency_p50, latency_p99). Summing per entity over-counted both.
func (c *Config) SeriesLabels() []SeriesLabel {
	var labels []SeriesLabel
	seen := map[[2]string]bool{}
	add := func(entity string, keys ...SeriesKey) {
		for _, k := range keys {
			if id := [2]string{entity, k.Name}; !seen[id] {
				seen[id] = true
				labels = append(labels, SeriesLabel{entity, k})
			}
		}
	}
	add(TotalEntity, TotalGoodput, TotalInFlight)
	for i := range c.Clients {
		add(c.Clients[i].Name, ClientSent, ClientGoodput, ClientDegraded, ClientFailed,
			ClientLatencyP50, ClientLatencyP99, ClientOutcomeP99)
	}
	for i := range c.Services {
		add(c.Services[i].Name, c.serviceKeys(&c.Services[i])...)
	}
	// The call sites, in model order (newSite): the services' then the
	// clients'.
	for i := range c.Services {
		s := &c.Services[i]
		for _, steps := range s.handlers() {
			for _, st := range steps {
				for j := range st.Calls {
					cc := &st.Calls[j]
					add(siteName(s.Name, cc.Service, cc.Operation), siteKeys(&cc.Policy)...)
				}
			}
		}
	}
	for i := range c.Clients {
		cl := &c.Clients[i]
		add(siteName("client:"+cl.Name, cl.Target, cl.Operation), siteKeys(&cl.Call)...)
	}
	return labels
}

// serviceKeys is the metrics of service s (newServiceColumns): those
// every service has, then those of its policies.
func (c *Config) serviceKeys(s *ServiceConfig) []SeriesKey {
	keys := []SeriesKey{ServiceArrivals, ServiceThroughput, ServiceRejected, ServiceDropped, ServiceErrors,
		ServiceDegraded, ServiceInSystem, ServiceQueueLength, ServiceQueueAge, ServiceBusyWorkers, ServiceWorkers,
		ServiceLatencyMean, ServiceLatencyP50, ServiceLatencyP90, ServiceLatencyP99, ServiceLatencyP999,
		ServiceWastedWork, ServiceAmplification}
	if c.PropagateDeadlines && s.Abandonment == AtDequeue {
		keys = append(keys, ServiceExpiredInQueue)
	}
	if s.Cache != nil {
		keys = append(keys, ServiceCacheHitRatio)
	}
	a := &s.Admission
	if a.Shed != nil {
		keys = append(keys, ServiceShed)
	}
	if a.Limit != nil {
		keys = append(keys, ServiceLimited, ServiceLimit)
	}
	if a.CoDel != nil || a.LIFO != nil {
		keys = append(keys, ServiceQueueDropped)
	}
	if s.Guards.Outlier != nil {
		keys = append(keys, ServiceEjected)
	}
	if s.Guards.Readiness != nil {
		keys = append(keys, ServiceReady)
	}
	if s.Cancellation != CancelNever {
		keys = append(keys, ServiceCancelled)
	}
	return keys
}

// siteName is a call site's entity, as callSite.name writes it.
func siteName(caller, callee, op string) string {
	if op == "" {
		op = "call"
	}
	return caller + "->" + callee + "/" + op
}

// HistogramColumns is the number of per-interval latency histogram series
// a run of c records with Model.RecordHistogramSeries: one per client and
// per service, each with a count per bucket bound, the count and the sum.
func (c *Config) HistogramColumns() int {
	return (len(c.Clients) + len(c.Services)) * (len(LatencyBucketBounds()) + 2)
}

// siteKeys is the metrics of a call site with policy p
// (newSiteColumns): attempts for every site, then those of its guards and
// retry policy.
func siteKeys(p *CallPolicy) []SeriesKey {
	g := &p.Guards
	var keys []SeriesKey
	if g.Breaker != nil {
		keys = append(keys, SiteBreakerState, SiteShortCircuited, SiteBreakerOpened)
	}
	if g.Bulkhead != nil || g.BulkheadPool != nil {
		keys = append(keys, SiteBulkheadFull, SiteBulkheadInUse)
	}
	if g.Fallback != nil {
		keys = append(keys, SiteFallback, SiteFallbackFailed)
	}
	keys = append(keys, SiteAttempts)
	if p.Retry.MaxAttempts > 1 {
		keys = append(keys, SiteRetries, SiteRetriesDenied)
	}
	if g.HasTokenBudget() {
		keys = append(keys, SiteBudgetTokens)
	}
	return keys
}

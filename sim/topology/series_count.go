package topology

// SeriesColumns is the number of time-series columns a run of c records
// (Result.Series), known from the configuration alone: the totals, each
// client's, each service's with those of its policies, and each guarded
// call site's, by the rules of newSeriesRecorder. runner.Estimate counts
// series points and output bytes with it; TestSeriesColumnsMatchModel
// holds it to the columns a built model really has.
func (c *Config) SeriesColumns() int {
	n := 2 // TotalGoodput, TotalInFlight
	n += 7 * len(c.Clients)
	for i := range c.Services {
		s := &c.Services[i]
		n += 17 // arrivals to amplification: the columns every service has
		if c.PropagateDeadlines && s.Abandonment == AtDequeue {
			n++
		}
		if s.Cache != nil {
			n++
		}
		a := &s.Admission
		if a.Shed != nil {
			n++
		}
		if a.Limit != nil {
			n += 2
		}
		if a.CoDel != nil || a.LIFO != nil {
			n++
		}
		if s.Guards.Outlier != nil {
			n++
		}
		if s.Guards.Readiness != nil {
			n++
		}
		for _, steps := range s.handlers() {
			for _, st := range steps {
				for j := range st.Calls {
					n += siteColumnCount(&st.Calls[j].Policy)
				}
			}
		}
	}
	for i := range c.Clients {
		n += siteColumnCount(&c.Clients[i].Call)
	}
	return n
}

// HistogramColumns is the number of per-interval latency histogram series
// a run of c records with Model.RecordHistogramSeries: one per client and
// per service, each with a count per bucket bound, the count and the sum.
func (c *Config) HistogramColumns() int {
	return (len(c.Clients) + len(c.Services)) * (len(LatencyBucketBounds()) + 2)
}

// siteColumnCount is the columns of a call site with policy p
// (newSiteColumns): none without a guard or a retry.
func siteColumnCount(p *CallPolicy) int {
	g := &p.Guards
	retry := p.Retry.MaxAttempts > 1
	bulkhead := g.Bulkhead != nil || g.BulkheadPool != nil
	n := 0
	if g.Breaker != nil {
		n += 3
	}
	if bulkhead {
		n += 2
	}
	if g.Fallback != nil {
		n += 2
	}
	if retry {
		n += 3
	}
	if g.Budget != nil {
		n++
	}
	return n
}

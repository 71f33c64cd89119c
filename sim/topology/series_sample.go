package topology

import "github.com/ressim/ressim/sim/engine"

// Handle closes the interval [r.last, now).
func (r *seriesRecorder) Handle(now engine.Time, _ any) {
	if err := r.ts.AppendInterval(int64(r.last), int64(now)); err != nil {
		r.err = err
		r.m.sim.Stop()
		return
	}
	span := now.Sub(r.last).Seconds()
	dt := float64(now - r.last)
	sent := r.sampleClients(span)
	for i, s := range r.m.services {
		r.sampleService(i, s, now, span, dt, sent)
	}
	for i := range r.siteCols {
		r.siteCols[i].sample(now, span)
	}
	for _, site := range r.m.sites {
		site.st.iv = [numSiteCounters]uint64{}
	}
	r.last = now
	if f := r.m.progress; f != nil {
		f(now.Duration(), r.m.end.Duration())
	}
	if f := r.m.watch; f != nil && f(IntervalState{Now: now.Duration(), InFlight: r.m.inFlight, Backlog: r.m.backlog(),
		Sent: sent, Good: r.good[len(r.good)-1]}) {
		r.m.sim.Stop()
		return
	}
	if now < r.m.end {
		r.m.at(r.next(now), r, nil)
	}
}

// sampleClients sets the clients' and the totals' columns for an interval
// of span seconds, resets the clients' interval counters and returns the
// number of user requests sent in the interval.
func (r *seriesRecorder) sampleClients(span float64) (sent uint64) {
	var good float64
	var goodN uint64
	for i, c := range r.m.clients {
		k := &c.st.iv
		g := float64(k[kGood]) / span
		good += g
		goodN += k[kGood]
		sent += k[kSent]
		r.sampleClient(i, c, span)
		*k = [numClCounters]uint64{}
		c.st.ivLatency.reset()
		c.st.ivFailed.reset()
	}
	r.total.Set(good)
	r.good = append(r.good, goodN)
	r.inFlight = append(r.inFlight, r.m.inFlight)
	r.totalInFlight.Set(float64(r.m.inFlight))
	return sent
}

// sampleClient sets one client's columns from its interval counters and
// closes its interval histograms.
func (r *seriesRecorder) sampleClient(i int, c *client, span float64) {
	cc := &r.clCols[i]
	k := &c.st.iv
	lat := c.st.ivLatency.close(&c.st.latency)
	failed := c.st.ivFailed.close(&c.st.failed)
	if r.hists {
		r.clHist[i].Buckets.Append(lat)
	}
	cc.sent.Set(float64(k[kSent]) / span)
	cc.goodput.Set(float64(k[kGood]) / span)
	cc.degraded.Set(float64(k[kDegraded]) / span)
	cc.failed.Set(float64(k[kLate]+k[kExpired]+k[kError]+k[kRejected]+k[kDropped]) / span)
	var q [2]int64
	if lat.Count() > 0 {
		lat.Quantiles([]float64{0.50, 0.99}, q[:]) // increasing: one pass
		cc.p50.Set(nsToMs(q[0]))
		cc.p99.Set(nsToMs(q[1]))
	}
	switch {
	case failed.Count() == 0:
		if lat.Count() > 0 {
			cc.outcome.Set(nsToMs(q[1])) // every outcome was an answer
		}
	default:
		h := &r.scratch
		h.Reset()
		mergeExact(h, lat)
		mergeExact(h, failed)
		cc.outcome.Set(nsToMs(h.Quantile(0.99)))
	}
}

// sampleService sets service i's columns for the interval ending at now
// (span seconds, dt nanoseconds long, sent user requests) and resets its
// interval counters and histograms.
func (r *seriesRecorder) sampleService(i int, s *service, now engine.Time, span, dt float64, sent uint64) {
	c := &r.svcCols[i]
	st := &s.st
	sojourn := st.ivSojourn.close(&st.sojourn)
	if r.hists {
		r.svcHist[i].Buckets.Append(sojourn)
	}
	k := &st.iv
	a := st.areas(now)
	c.arrivals.Set(float64(k[cOffered]) / span)
	c.throughput.Set(float64(k[cCompleted]) / span)
	c.rejected.Set(float64(k[cRejected]) / span)
	c.dropped.Set(float64(k[cDropped]) / span)
	c.errors.Set(float64(k[cError]+k[cDepFailed]+k[cKilled]) / span)
	c.degraded.Set(float64(k[cDegraded]) / span)
	c.inSystem.Set((a[aInSystem] - st.ivArea[aInSystem]) / dt)
	c.queue.Set((a[aQueue] - st.ivArea[aQueue]) / dt)
	c.queueAge.Set(float64(s.oldestQueued(now)) / 1e6)
	c.busy.Set((a[aBusy] - st.ivArea[aBusy]) / dt)
	c.workers.Set((a[aWorkers] - st.ivArea[aWorkers]) / dt)
	if c.expired != nil {
		c.expired.Set((a[aExpired] - st.ivArea[aExpired]) / dt)
	}
	c.wasted.Set(float64(st.ivWastedNs) / dt)
	if sent > 0 {
		c.amplification.Set(float64(k[cOffered]) / float64(sent))
	}
	if h := sojourn; h.Count() > 0 {
		var q [4]int64
		h.Quantiles([]float64{0.50, 0.90, 0.99, 0.999}, q[:]) // increasing: one pass
		c.mean.Set(h.Mean() / 1e6)
		c.p50.Set(nsToMs(q[0]))
		c.p90.Set(nsToMs(q[1]))
		c.p99.Set(nsToMs(q[2]))
		c.p999.Set(nsToMs(q[3]))
	}
	c.samplePolicies(s, span)
	*k = [numSvcCounters]uint64{}
	st.ivSojourn.reset()
	st.ivWastedNs = 0
	st.ivArea = a
}

// samplePolicies sets the columns of the service's optional policies.
func (c *serviceColumns) samplePolicies(s *service, span float64) {
	k := &s.st.iv
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
	if c.cancelled != nil {
		c.cancelled.Set(float64(k[cCancelled]) / span)
	}
	if c.ejected != nil || c.ready != nil {
		ej, rd := 0, 0
		for _, in := range s.insts {
			if in.ejected() {
				ej++
			}
			if in.ready() {
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
}

// sample sets a call site's columns for the interval ending at now.
func (sc *siteColumns) sample(now engine.Time, span float64) {
	g := &sc.site.guards
	k := &sc.site.st.iv
	if sc.breaker != nil {
		sc.site.m.breakerSync(now, sc.site)
		sc.breaker.Set(breakerLevel(g.breakerState))
		sc.shortCircuited.Set(float64(k[sShortCircuited]) / span)
		sc.opened.Set(float64(k[sBreakerOpened]) / span)
	}
	if sc.bulkheadFull != nil {
		sc.bulkheadFull.Set(float64(k[sBulkheadFull]) / span)
		sc.inUse.Set(float64(g.bulkhead.InUse()))
	}
	if sc.fallback != nil {
		sc.fallback.Set(float64(k[sFallback]) / span)
		sc.fallbackFailed.Set(float64(k[sFallbackFailed]) / span)
	}
	sc.attempts.Set(float64(k[sAttempts]) / span)
	if sc.retries != nil {
		sc.retries.Set(float64(k[sRetries]) / span)
		sc.retriesDenied.Set(float64(k[sRetryDenied]) / span)
	}
	if sc.tokens != nil {
		sc.tokens.Set(g.budget.Tokens())
	}
}

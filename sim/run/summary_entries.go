package run

import "github.com/ressim/ressim/sim/topology"

// newServiceSummary is a service's entry of summary.json; the
// amplification is given only for a run with user requests.
func newServiceSummary(r topology.ServiceResult, userRequests uint64) ServiceSummary {
	mode := "threads"
	if r.Async {
		mode = "async"
	}
	var amp, hit *float64
	if userRequests > 0 {
		amp = JSONNum(r.Amplification)
	}
	if r.Cache != nil {
		hit = JSONNum(r.Cache.HitRatioAtEnd)
	}
	return ServiceSummary{
		Instances:          r.Instances,
		Workers:            r.Workers,
		Mode:               mode,
		Arrivals:           r.Arrivals,
		InstanceArrivals:   r.InstanceArrivals,
		Admitted:           r.Admitted,
		Completed:          r.Completed,
		Rejected:           r.Rejected,
		Dropped:            r.Dropped,
		OK:                 r.OK,
		Degraded:           r.Degraded,
		Errors:             r.Errors,
		DependencyFailed:   r.DependencyFailed,
		Killed:             r.Killed,
		TimedOut:           r.TimedOut,
		Wasted:             r.Wasted,
		Cancelled:          r.Cancelled,
		Shed:               r.Shed,
		Limited:            r.Limited,
		QueueDropped:       r.QueueDropped,
		Ejections:          r.Ejections,
		Restarts:           r.Restarts,
		WastedWorkS:        r.WastedWork.Seconds(),
		Amplification:      amp,
		CacheHitRatioEnd:   hit,
		InFlightAtEnd:      r.InFlightAtEnd,
		RejectionRatio:     ratio(r.Rejected, r.Arrivals),
		ThroughputRPS:      JSONNum(r.Throughput),
		PWait:              ratio(r.Delayed, r.Sojourn.Count()),
		MeanWaitS:          secs(r.Wait.Mean(), r.Wait.Count()),
		MeanServiceS:       secs(r.Service.Mean(), r.Service.Count()),
		MeanSojournS:       secs(r.Sojourn.Mean(), r.Sojourn.Count()),
		P50SojournS:        QuantileSeconds(r.Sojourn, 0.50),
		P90SojournS:        QuantileSeconds(r.Sojourn, 0.90),
		P99SojournS:        QuantileSeconds(r.Sojourn, 0.99),
		P999SojournS:       QuantileSeconds(r.Sojourn, 0.999),
		MaxSojournS:        secs(float64(r.Sojourn.Max()), r.Sojourn.Count()),
		P99WaitS:           QuantileSeconds(r.Wait, 0.99),
		MeanInSystem:       JSONNum(r.MeanInSystem),
		MeanQueueLen:       JSONNum(r.MeanQueue),
		MeanExpiredInQueue: positive(r.MeanExpiredInQueue),
		MeanBusy:           JSONNum(r.MeanBusy),
		Utilization:        JSONNum(r.Utilization),
	}
}

// newClientSummary is a client's entry of summary.json.
func newClientSummary(c topology.ClientResult) ClientSummary {
	return ClientSummary{
		P50OutcomeLatencyS: QuantileSeconds(c.OutcomeLatency, 0.50),
		P99OutcomeLatencyS: QuantileSeconds(c.OutcomeLatency, 0.99),
		GoodputShare:       ratio(c.SentGood, c.Sent),
		InFlightAtEnd:      c.InFlightAtEnd,
		PeakInFlight:       c.PeakInFlight,
		Target:             c.Target, Sent: c.Sent, Good: c.Good, Degraded: c.Degraded, Late: c.Late,
		Expired: c.Expired, Errors: c.Errors, Rejected: c.Rejected, Dropped: c.Dropped,
		GoodputRPS:       c.Goodput,
		DegradedRPS:      c.DegradedRate,
		SuccessRatio:     ratio(c.Good+c.Degraded, c.Sent),
		MeanLatencyS:     secs(c.Latency.Mean(), c.Latency.Count()),
		P50LatencyS:      QuantileSeconds(c.Latency, 0.50),
		P99LatencyS:      QuantileSeconds(c.Latency, 0.99),
		P999LatencyS:     QuantileSeconds(c.Latency, 0.999),
		LatencyHistogram: c.Latency.Snapshot(),
	}
}

// newCallSummary is a call edge's entry of summary.json.
func newCallSummary(c topology.CallResult) CallSummary {
	return CallSummary{
		Calls: c.Calls, Attempts: c.Attempts, Retries: c.Retries, OK: c.OK, Timeouts: c.Timeouts,
		Errors: c.Errors, Rejected: c.Rejected, Dropped: c.Dropped, CacheHits: c.CacheHits,
		RetryDenied: c.DeniedBy, Failed: c.Failed,
		ShortCircuited: c.ShortCircuited, RetriesIntoOpen: c.RetriesIntoOpen,
		BreakerOpened: c.BreakerOpened, BulkheadFull: c.BulkheadFull, Fallbacks: c.Fallbacks,
		FallbackFailed: c.FallbackFailed, Killed: c.Killed,
		Hedges: c.Hedges, HedgesLost: c.HedgesLost,
	}
}

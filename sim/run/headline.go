package run

import (
	"github.com/ressim/ressim/sim/metrics"
	"github.com/ressim/ressim/sim/topology"
)

// Headline holds the metrics a comparison reports for one run. Every
// float field is one per-run key of the headline metric contract
// (sim/headline), read through headlineField; the bools are flags the
// getters and the locked-in probability read. A field added here needs
// its key there (TestEveryHeadlineFieldHasAKey).
type Headline struct {
	// Goodput is full answers within the deadline per second, all clients.
	Goodput float64
	// P99 is the 99th percentile of the users' latency (answered
	// requests), seconds; NaN if nothing was answered.
	P99 float64
	// SuccessRatio is (good + degraded) / sent.
	SuccessRatio float64
	// Amplification is the largest attempts-per-user-request of any
	// service.
	Amplification float64
	// WastedWork is the worker-seconds spent on requests nobody waited
	// for, all services.
	WastedWork float64
	// Recovery is the first fault's recovery time in seconds (0 if
	// unaffected); HasRecovery says whether it recovered at all.
	Recovery    float64
	HasRecovery bool
	// LockedIn says the first fault's verdict was locked_in or relapsed.
	LockedIn bool
	// P99Outcome is the 99th percentile of the time to the outcome of
	// every user request (topology.ClientResult.OutcomeLatency), seconds;
	// NaN if nothing was sent.
	P99Outcome float64
	// GoodputShare is good / sent, all clients.
	GoodputShare float64
	// InFlightAtEnd is the user requests still unanswered at the end.
	InFlightAtEnd float64
	// HasFault says the experiment has a fault to judge.
	HasFault bool
}

// NewHeadline extracts the headline metrics of a run.
func NewHeadline(res *topology.Result) Headline {
	var h Headline
	var lat, out metrics.Histogram
	var sent, ok uint64
	for _, c := range res.Clients {
		h.Goodput += c.Goodput
		sent += c.Sent
		ok += c.Good + c.Degraded
		lat.Merge(c.Latency)
		out.Merge(c.OutcomeLatency)
	}
	h.P99, h.P99Outcome = nan(), nan()
	if lat.Count() > 0 {
		h.P99 = float64(lat.Quantile(0.99)) / 1e9
	}
	if out.Count() > 0 {
		h.P99Outcome = float64(out.Quantile(0.99)) / 1e9
	}
	h.SuccessRatio, h.GoodputShare = nan(), nan()
	if sent > 0 {
		h.SuccessRatio = float64(ok) / float64(sent)
		h.GoodputShare = goodShare(res)
	}
	h.InFlightAtEnd = float64(res.InFlightAtEnd)
	for _, s := range res.Services {
		h.Amplification = max(h.Amplification, s.Amplification)
		h.WastedWork += s.WastedWork.Seconds()
	}
	if len(res.Faults) > 0 {
		h.HasFault = true
		r := res.Faults[0].Recovery
		switch r.Verdict {
		case topology.VerdictRecovered, topology.VerdictUnaffected:
			h.Recovery, h.HasRecovery = r.Time.Seconds(), true
		case topology.VerdictLockedIn, topology.VerdictRelapsed:
			h.LockedIn = true
		}
	}
	return h
}

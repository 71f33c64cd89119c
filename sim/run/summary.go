package run

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"

	"github.com/ressim/ressim/internal/version"
	"github.com/ressim/ressim/sim/metrics"
	"github.com/ressim/ressim/sim/topology"
)

// Summary is the content of summary.json. Field names are part of the
// output format (docs/experiment-format.md); times are in seconds, rates
// per second. A quantity that is undefined (the mean latency of a service
// that completed nothing) is null.
type Summary struct {
	Version    string  `json:"ressim_version"`
	Experiment string  `json:"experiment"`
	Seed       uint64  `json:"seed"`
	DurationS  float64 `json:"duration_s"`
	WarmupS    float64 `json:"warmup_s"`
	WindowS    float64 `json:"window_s"`
	Events     uint64  `json:"events"`
	// UserRequests is the number of end-user requests sent in the window.
	UserRequests uint64 `json:"user_requests"`
	// Headline is what the users got, first: the verdict on the first
	// fault, goodput as a share of what was sent, requests in flight.
	Headline HeadlineSummary           `json:"headline"`
	Services map[string]ServiceSummary `json:"services"`
	Clients  map[string]ClientSummary  `json:"clients"`
	// Calls are keyed "caller->callee/operation".
	Calls  map[string]CallSummary `json:"calls"`
	Faults []FaultSummary         `json:"faults"`
	// Actions are the timed actions that ran, in order; absent without
	// actions.
	Actions []ActionSummary `json:"actions,omitempty"`
	// EventLog counts the state changes events.csv lists.
	EventLog EventLogSummary `json:"event_log"`
}

// HeadlineSummary leads summary.json: the numbers that tell at a glance
// whether the system is healthy. The JSON names of its fields that are
// headline metrics are the contract's Def.Summary (sim/headline); struct
// tags cannot be computed, so TestSummaryHeadlineNamesFromTheContract
// holds them to it.
type HeadlineSummary struct {
	// Verdict is the first fault's verdict ("" without faults).
	Verdict string `json:"verdict"`
	// GoodputShare is full answers within the deadline over user requests
	// sent, all clients, in the window.
	GoodputShare *float64 `json:"goodput_share"`
	// InFlightAtEnd and PeakInFlight are user requests still unanswered
	// at the end, and the most at any moment after the warm-up.
	InFlightAtEnd int64 `json:"in_flight_at_end"`
	PeakInFlight  int64 `json:"peak_in_flight"`
	// P99OutcomeLatencyS is the 99th percentile of the time to the outcome
	// of every user request (requests still in flight at the end count
	// with their age); P99AnsweredLatencyS that of answered requests only.
	P99OutcomeLatencyS  *float64 `json:"p99_outcome_latency_s"`
	P99AnsweredLatencyS *float64 `json:"p99_answered_latency_s"`
}

// ServiceSummary is one service's line of summary.json.
type ServiceSummary struct {
	Instances        int      `json:"instances"`
	Workers          int      `json:"workers"`
	Mode             string   `json:"mode"`
	Arrivals         uint64   `json:"arrivals"`
	InstanceArrivals []uint64 `json:"instance_arrivals"`
	Admitted         uint64   `json:"admitted"`
	Completed        uint64   `json:"completed"`
	Rejected         uint64   `json:"rejected"`
	Dropped          uint64   `json:"dropped"`
	OK               uint64   `json:"ok"`
	Degraded         uint64   `json:"degraded"`
	Errors           uint64   `json:"errors"`
	DependencyFailed uint64   `json:"dependency_failed"`
	Killed           uint64   `json:"killed"`
	TimedOut         uint64   `json:"timed_out_by_callers"`
	Wasted           uint64   `json:"wasted"`
	// Cancelled are the handlers cut short, and the queued requests
	// dropped, because their caller was gone (a service with
	// cancellation at_step or continuous; absent otherwise).
	Cancelled        uint64   `json:"cancelled,omitempty"`
	Shed             uint64   `json:"shed"`
	Limited          uint64   `json:"limited"`
	QueueDropped     uint64   `json:"queue_dropped"`
	Ejections        uint64   `json:"ejections"`
	Restarts         uint64   `json:"liveness_restarts"`
	WastedWorkS      float64  `json:"wasted_work_s"`
	Amplification    *float64 `json:"amplification"`
	CacheHitRatioEnd *float64 `json:"cache_hit_ratio_at_end,omitempty"`
	InFlightAtEnd    int      `json:"in_flight_at_end"`
	RejectionRatio   *float64 `json:"rejection_ratio"`
	ThroughputRPS    *float64 `json:"throughput_rps"`
	PWait            *float64 `json:"p_wait"`
	MeanWaitS        *float64 `json:"mean_wait_s"`
	MeanServiceS     *float64 `json:"mean_service_s"`
	MeanSojournS     *float64 `json:"mean_sojourn_s"`
	P50SojournS      *float64 `json:"p50_sojourn_s"`
	P90SojournS      *float64 `json:"p90_sojourn_s"`
	P99SojournS      *float64 `json:"p99_sojourn_s"`
	P999SojournS     *float64 `json:"p999_sojourn_s"`
	MaxSojournS      *float64 `json:"max_sojourn_s"`
	P99WaitS         *float64 `json:"p99_wait_s"`
	MeanInSystem     *float64 `json:"mean_in_system"`
	MeanQueueLen     *float64 `json:"mean_queue_length"`
	// MeanExpiredInQueue: requests holding a queue place past their
	// deadline (abandonment at_dequeue); omitted when 0.
	MeanExpiredInQueue *float64 `json:"mean_expired_in_queue,omitempty"`
	MeanBusy           *float64 `json:"mean_busy_workers"`
	Utilization        *float64 `json:"utilization"`
}

// ClientSummary is one client's line of summary.json.
type ClientSummary struct {
	Target       string   `json:"target"`
	Sent         uint64   `json:"sent"`
	Good         uint64   `json:"good"`
	Degraded     uint64   `json:"degraded"`
	Late         uint64   `json:"late"`
	Expired      uint64   `json:"expired"`
	Errors       uint64   `json:"errors"`
	Rejected     uint64   `json:"rejected"`
	Dropped      uint64   `json:"dropped"`
	GoodputRPS   float64  `json:"goodput_rps"`
	DegradedRPS  float64  `json:"degraded_rps"`
	SuccessRatio *float64 `json:"success_ratio"`
	MeanLatencyS *float64 `json:"mean_latency_s"`
	P50LatencyS  *float64 `json:"p50_latency_s"`
	P99LatencyS  *float64 `json:"p99_latency_s"`
	P999LatencyS *float64 `json:"p999_latency_s"`
	// Outcome latency: to the outcome of every request sent in the
	// window, answered or not (see topology.ClientResult.OutcomeLatency).
	P50OutcomeLatencyS *float64 `json:"p50_outcome_latency_s"`
	P99OutcomeLatencyS *float64 `json:"p99_outcome_latency_s"`
	GoodputShare       *float64 `json:"goodput_share"`
	InFlightAtEnd      int64    `json:"in_flight_at_end"`
	PeakInFlight       int64    `json:"peak_in_flight"`
	// LatencyHistogram is the full latency distribution (nanoseconds,
	// log-linear buckets with relative error below 0.4 %), mergeable
	// across runs: metrics.FromSnapshot rebuilds it.
	LatencyHistogram metrics.Snapshot `json:"latency_histogram_ns"`
}

// CallSummary is one call site's line of summary.json.
type CallSummary struct {
	Calls       uint64            `json:"calls"`
	Attempts    uint64            `json:"attempts"`
	Retries     uint64            `json:"retries"`
	OK          uint64            `json:"ok"`
	Timeouts    uint64            `json:"timeouts"`
	Errors      uint64            `json:"errors"`
	Rejected    uint64            `json:"rejected"`
	Dropped     uint64            `json:"dropped"`
	CacheHits   uint64            `json:"cache_hits"`
	RetryDenied map[string]uint64 `json:"retries_denied,omitempty"`
	Failed      uint64            `json:"failed"`
	// Guards.
	ShortCircuited  uint64 `json:"short_circuited"`
	RetriesIntoOpen uint64 `json:"retries_into_open_breaker"`
	BreakerOpened   uint64 `json:"breaker_opened"`
	BulkheadFull    uint64 `json:"bulkhead_full"`
	Fallbacks       uint64 `json:"fallbacks"`
	FallbackFailed  uint64 `json:"fallbacks_failed"`
	Killed          uint64 `json:"killed_by_switch"`
	// Hedges are the extra copies a hedged call sent, HedgesLost those
	// cancelled because another copy decided the call (absent when the
	// call does not hedge).
	Hedges     uint64 `json:"hedges,omitempty"`
	HedgesLost uint64 `json:"hedges_lost,omitempty"`
}

// FaultSummary is a fault and the recovery verdict on it.
type FaultSummary struct {
	Kind      string   `json:"kind"`
	Target    string   `json:"target"`
	Label     string   `json:"label"`
	StartS    float64  `json:"start_s"`
	EndS      float64  `json:"end_s"`
	Verdict   string   `json:"verdict"`
	Reason    string   `json:"reason"`
	Baseline  float64  `json:"baseline_goodput_rps"`
	Threshold float64  `json:"threshold_goodput_rps"`
	Min       float64  `json:"min_goodput_rps"`
	Recovery  *float64 `json:"recovery_time_s"`
	// ReturnedS and RelapsedS, for a relapse: when goodput was back, and
	// when it collapsed again (seconds from the start of the run).
	ReturnedS *float64        `json:"returned_s,omitempty"`
	RelapsedS *float64        `json:"relapsed_s,omitempty"`
	Evidence  EvidenceSummary `json:"evidence"`
}

// EvidenceSummary is what a verdict was decided from
// (topology.Evidence); times in seconds from the start of the run.
type EvidenceSummary struct {
	BaselineStartS float64  `json:"baseline_start_s"`
	BaselineEndS   float64  `json:"baseline_end_s"`
	BaselineGood   uint64   `json:"baseline_good"`
	WindowS        float64  `json:"window_s"`
	EndStartS      float64  `json:"end_window_start_s"`
	EndEndS        float64  `json:"end_window_end_s"`
	EndGood        uint64   `json:"end_window_good"`
	EndExpected    float64  `json:"end_window_expected_at_threshold"`
	PValue         *float64 `json:"p_value"`
	EndCritical    int64    `json:"end_window_critical"`
	Alpha          float64  `json:"alpha"`
	InFlightBand   int64    `json:"in_flight_band"`
	InFlightAtEnd  int64    `json:"in_flight_at_end"`
	InFlightPeak   int64    `json:"in_flight_peak"`
}

// JSONNum returns x as a JSON number, or nil (null) when it is not finite.
func JSONNum(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// positive is JSONNum(x) for x > 0, and nil (omitted) otherwise.
func positive(x float64) *float64 {
	if !(x > 0) {
		return nil
	}
	return JSONNum(x)
}

// secs returns a nanosecond quantity in seconds, null when count is 0.
func secs(ns float64, count uint64) *float64 {
	if count == 0 {
		return nil
	}
	return JSONNum(ns / 1e9)
}

// ratio returns a/b, null when b is 0.
func ratio(a, b uint64) *float64 {
	if b == 0 {
		return nil
	}
	return JSONNum(float64(a) / float64(b))
}

// QuantileSeconds is h's quantile q in seconds as a JSON number, null
// when h is empty.
func QuantileSeconds(h *metrics.Histogram, q float64) *float64 {
	return secs(float64(h.Quantile(q)), h.Count())
}

// NewSummary builds the summary of a run.
func NewSummary(res *topology.Result) *Summary {
	window := res.Duration - res.Warmup
	s := &Summary{
		Version:      version.Version,
		Experiment:   res.Name,
		Seed:         res.Seed,
		DurationS:    res.Duration.Seconds(),
		WarmupS:      res.Warmup.Seconds(),
		WindowS:      window.Seconds(),
		Events:       res.Events,
		Services:     map[string]ServiceSummary{},
		Clients:      map[string]ClientSummary{},
		Calls:        map[string]CallSummary{},
		Faults:       []FaultSummary{},
		UserRequests: res.UserRequests,
		EventLog:     newEventLogSummary(res.EventLog),
	}
	for _, r := range res.Services {
		s.Services[r.Name] = newServiceSummary(r, res.UserRequests)
	}
	s.Headline = NewHeadlineSummary(res)
	for _, c := range res.Clients {
		s.Clients[c.Name] = newClientSummary(c)
	}
	for _, c := range res.Calls {
		s.Calls[c.Caller+"->"+c.Callee+"/"+c.Operation] = newCallSummary(c)
	}
	for _, f := range res.Faults {
		s.Faults = append(s.Faults, newFaultSummary(f))
	}
	for _, a := range res.Actions {
		s.Actions = append(s.Actions, ActionSummary{AtS: a.At.Seconds(), Kind: a.Kind, Subject: a.Subject, Label: a.Label, From: a.From, To: a.To})
	}
	return s
}

// ActionSummary is one timed action that ran: its instant, kind, what it
// changed, its label, and the values before and after.
type ActionSummary struct {
	AtS     float64 `json:"at_s"`
	Kind    string  `json:"kind"`
	Subject string  `json:"subject"`
	Label   string  `json:"label"`
	From    string  `json:"from"`
	To      string  `json:"to"`
}

func newFaultSummary(f topology.FaultResult) FaultSummary {
	r := &f.Recovery
	e := &r.Evidence
	fs := FaultSummary{
		Kind: f.Kind, Target: f.Target, Label: f.Label,
		StartS: f.Start.Seconds(), EndS: f.End.Seconds(),
		Verdict:   r.Verdict,
		Reason:    r.Reason,
		Baseline:  r.Baseline,
		Threshold: r.Threshold,
		Min:       r.Min,
		Evidence: EvidenceSummary{
			BaselineStartS: e.BaselineStart.Seconds(), BaselineEndS: e.BaselineEnd.Seconds(),
			BaselineGood: e.BaselineGood, WindowS: e.Window.Seconds(),
			EndStartS: e.EndStart.Seconds(), EndEndS: e.EndEnd.Seconds(),
			EndGood: e.EndGood, EndExpected: e.EndExpected, Alpha: e.Alpha, EndCritical: e.EndCritical,
			InFlightBand: e.InFlightBand, InFlightAtEnd: e.InFlightAtEnd, InFlightPeak: e.InFlightPeak,
		},
	}
	if e.EndEnd > 0 {
		fs.Evidence.PValue = JSONNum(e.PValue)
	}
	switch r.Verdict {
	case topology.VerdictRecovered, topology.VerdictUnaffected:
		fs.Recovery = JSONNum(r.Time.Seconds())
	case topology.VerdictRelapsed:
		fs.ReturnedS, fs.RelapsedS = JSONNum(r.Returned.Seconds()), JSONNum(r.Relapsed.Seconds())
	}
	return fs
}

// NewHeadlineSummary builds the summary's headline alone, without the rest
// of NewSummary's work (every service's, client's and call's figures).
func NewHeadlineSummary(res *topology.Result) HeadlineSummary {
	var h HeadlineSummary
	if len(res.Faults) > 0 {
		h.Verdict = res.Faults[0].Recovery.Verdict
	}
	var out, ans metrics.Histogram
	for _, c := range res.Clients {
		out.Merge(c.OutcomeLatency)
		ans.Merge(c.Latency)
	}
	h.GoodputShare = JSONNum(goodShare(res))
	h.InFlightAtEnd, h.PeakInFlight = res.InFlightAtEnd, res.PeakInFlight
	h.P99OutcomeLatencyS = QuantileSeconds(&out, 0.99)
	h.P99AnsweredLatencyS = QuantileSeconds(&ans, 0.99)
	return h
}

// SummaryJSON renders the summary of a run as indented JSON. Map keys are
// sorted by encoding/json, so the bytes are deterministic.
func SummaryJSON(res *topology.Result) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(NewSummary(res)); err != nil {
		return nil, fmt.Errorf("summary: %w", err)
	}
	return b.Bytes(), nil
}

// goodShare is the share of the user requests sent in the window that got
// a full answer in time, all clients; NaN if none was sent.
func goodShare(res *topology.Result) float64 {
	var sent, good uint64
	for _, c := range res.Clients {
		sent += c.Sent
		good += c.SentGood
	}
	if sent == 0 {
		return nan()
	}
	return float64(good) / float64(sent)
}

func nan() float64 { return math.NaN() }

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
	Version    string                    `json:"ressim_version"`
	Experiment string                    `json:"experiment"`
	Seed       uint64                    `json:"seed"`
	DurationS  float64                   `json:"duration_s"`
	WarmupS    float64                   `json:"warmup_s"`
	WindowS    float64                   `json:"window_s"`
	Events     uint64                    `json:"events"`
	Services   map[string]ServiceSummary `json:"services"`
	Clients    map[string]ClientSummary  `json:"clients"`
}

// ServiceSummary is one service's line of summary.json.
type ServiceSummary struct {
	Workers        int      `json:"workers"`
	Arrivals       uint64   `json:"arrivals"`
	Completed      uint64   `json:"completed"`
	Rejected       uint64   `json:"rejected"`
	InFlightAtEnd  int      `json:"in_flight_at_end"`
	RejectionRatio *float64 `json:"rejection_ratio"`
	ThroughputRPS  *float64 `json:"throughput_rps"`
	PWait          *float64 `json:"p_wait"`
	MeanWaitS      *float64 `json:"mean_wait_s"`
	MeanServiceS   *float64 `json:"mean_service_s"`
	MeanSojournS   *float64 `json:"mean_sojourn_s"`
	P50SojournS    *float64 `json:"p50_sojourn_s"`
	P90SojournS    *float64 `json:"p90_sojourn_s"`
	P99SojournS    *float64 `json:"p99_sojourn_s"`
	P999SojournS   *float64 `json:"p999_sojourn_s"`
	MaxSojournS    *float64 `json:"max_sojourn_s"`
	P99WaitS       *float64 `json:"p99_wait_s"`
	MeanInSystem   *float64 `json:"mean_in_system"`
	MeanQueueLen   *float64 `json:"mean_queue_length"`
	MeanBusy       *float64 `json:"mean_busy_workers"`
	Utilization    *float64 `json:"utilization"`
}

// ClientSummary is one client's line of summary.json.
type ClientSummary struct {
	Target string `json:"target"`
	Sent   uint64 `json:"sent"`
}

// num returns x as a JSON number, or nil (null) when it is not finite.
func num(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// secs returns a nanosecond quantity in seconds, null when count is 0.
func secs(ns float64, count uint64) *float64 {
	if count == 0 {
		return nil
	}
	return num(ns / 1e9)
}

// ratio returns a/b, null when b is 0.
func ratio(a, b uint64) *float64 {
	if b == 0 {
		return nil
	}
	return num(float64(a) / float64(b))
}

func quantileS(h *metrics.Histogram, q float64) *float64 {
	return secs(float64(h.Quantile(q)), h.Count())
}

// NewSummary builds the summary of a run.
func NewSummary(res *topology.Result) *Summary {
	window := res.Duration - res.Warmup
	s := &Summary{
		Version:    version.Version,
		Experiment: res.Name,
		Seed:       res.Seed,
		DurationS:  res.Duration.Seconds(),
		WarmupS:    res.Warmup.Seconds(),
		WindowS:    window.Seconds(),
		Events:     res.Events,
		Services:   map[string]ServiceSummary{},
		Clients:    map[string]ClientSummary{},
	}
	for _, r := range res.Services {
		s.Services[r.Name] = ServiceSummary{
			Workers:        r.Workers,
			Arrivals:       r.Arrivals,
			Completed:      r.Completed,
			Rejected:       r.Rejected,
			InFlightAtEnd:  r.InFlightAtEnd,
			RejectionRatio: ratio(r.Rejected, r.Arrivals),
			ThroughputRPS:  num(r.Throughput),
			PWait:          ratio(r.Delayed, r.Sojourn.Count()),
			MeanWaitS:      secs(r.Wait.Mean(), r.Wait.Count()),
			MeanServiceS:   secs(r.Service.Mean(), r.Service.Count()),
			MeanSojournS:   secs(r.Sojourn.Mean(), r.Sojourn.Count()),
			P50SojournS:    quantileS(r.Sojourn, 0.50),
			P90SojournS:    quantileS(r.Sojourn, 0.90),
			P99SojournS:    quantileS(r.Sojourn, 0.99),
			P999SojournS:   quantileS(r.Sojourn, 0.999),
			MaxSojournS:    secs(float64(r.Sojourn.Max()), r.Sojourn.Count()),
			P99WaitS:       quantileS(r.Wait, 0.99),
			MeanInSystem:   num(r.MeanInSystem),
			MeanQueueLen:   num(r.MeanQueue),
			MeanBusy:       num(r.MeanBusy),
			Utilization:    num(r.Utilization),
		}
	}
	for _, c := range res.Clients {
		s.Clients[c.Name] = ClientSummary{Target: c.Target, Sent: c.Sent}
	}
	return s
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

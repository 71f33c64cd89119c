package runner

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/ressim/ressim/sim/topology"
)

// Cost is an estimate, from the configuration alone, of what one run of a
// model costs. The formula (docs/security.md, "Budgets"):
//
//	events ≈ Σ clients requests × E(target handler, client policy)
//	         + Σ services instances × (duration / probe or ejection period)
//	         + duration / interval × (1 + services + clients)
//	series points = duration / interval × (1 + 6 clients + 21 services
//	                + 17 (clients + services))   (the last: latency histograms)
//	E(policy, handler) = attempts × (4 + Σ steps: work 1, call p × E(call))
//
// plus, in Memory, the event log at its cap (topology.Config.EventLogCap)
// × 120 bytes; where requests = peak rate (schedule maximum, times the largest load
// fault on the client) × duration for an open-loop client, and users ×
// duration / (mean think time + the handler's mean work) for a
// closed-loop one; attempts = the retry policy's max_attempts (1 without
// retries); 4 events per attempt (arrival, work or response, timeout,
// delivery). It assumes every attempt is retried to the limit and the
// peak rate holds for the whole run, so for the bundled experiments it
// over-estimates the events fired by 1.5-10x (docs/security.md); it
// never sees a queue growing without bound, which the run-time memory
// budget catches.
type Cost struct {
	// Events is the estimated number of events one run fires.
	Events float64
	// Entities is the users, instances and workers the model holds at
	// once, at least.
	Entities float64
	// SeriesPoints is time-series values recorded (columns × intervals).
	SeriesPoints float64
	// Memory is the estimated bytes one run holds at its peak, not
	// counting queues that grow (those the run-time budget bounds).
	Memory float64
	// Drivers name the keys that drive Events, the largest first, as
	// "key (share of the events)".
	Drivers []string
}

// Bytes per unit, measured roughly on the bundled experiments: a pending
// event with its request records, a closed-loop user, a worker slot, a
// time-series value.
const (
	bytesPerPending = 600
	bytesPerUser    = 400
	bytesPerWorker  = 64
	bytesPerPoint   = 8
	bytesPerEvent   = 120 // a logged state change (topology.Event) and its strings
)

// Estimate returns the cost of one run of cfg.
func Estimate(cfg topology.Config) Cost {
	var c Cost
	d := cfg.Duration.Seconds()
	drivers := map[string]float64{}
	svc := map[string]*topology.ServiceConfig{}
	for i := range cfg.Services {
		svc[cfg.Services[i].Name] = &cfg.Services[i]
	}
	e := estimator{svc: svc, memo: map[string]float64{}}
	var inFlight float64
	for _, cl := range cfg.Clients {
		reqs, key := clientRequests(cfg, cl, e.workOf(cl.Target, cl.Operation))
		ev := reqs * e.call(cl.Call, cl.Target, cl.Operation)
		c.Events += ev
		drivers[key] += ev
		c.Entities += float64(cl.Users)
		inFlight += float64(cl.Users)
	}
	for _, s := range cfg.Services {
		ev := float64(s.Instances) * d * periodicRate(s)
		c.Events += ev
		if ev > 0 {
			drivers[fmt.Sprintf("service %q probe periods and outlier interval", s.Name)] += ev
		}
		c.Entities += float64(s.Instances) * float64(1+s.Workers)
	}
	iv := cfg.Interval
	if iv <= 0 {
		iv = topology.DefaultInterval
	}
	intervals := d / iv.Seconds()
	// Time-series columns, then the latency histograms: per client and
	// service, the counts at each bucket bound, the count and the sum.
	hist := float64(len(topology.LatencyBucketBounds()) + 2)
	cols := 1 + 6*float64(len(cfg.Clients)) + 21*float64(len(cfg.Services)) +
		hist*float64(len(cfg.Clients)+len(cfg.Services))
	c.SeriesPoints = intervals * cols
	c.Events += intervals * (1 + float64(len(cfg.Services)+len(cfg.Clients)))
	drivers["[experiment] interval"] += intervals * (1 + float64(len(cfg.Services)+len(cfg.Clients)))
	c.Memory = c.SeriesPoints*bytesPerPoint + inFlight*bytesPerUser + c.Entities*bytesPerWorker +
		bytesPerPending*math.Min(c.Events, 1e4) + bytesPerEvent*float64(eventLogCap(cfg))
	c.Drivers = topDrivers(drivers, c.Events)
	return c
}

// eventLogCap is the most state changes a run of cfg logs: the log's
// memory is bounded by its cap, whatever the run does.
func eventLogCap(cfg topology.Config) int {
	if cfg.EventLogCap > 0 {
		return cfg.EventLogCap
	}
	return topology.DefaultEventLogCap
}

// clientRequests is the user requests a client sends in the run, and the
// key that sets it.
func clientRequests(cfg topology.Config, cl topology.ClientConfig, work float64) (float64, string) {
	d := cfg.Duration.Seconds()
	if cl.Users > 0 {
		cycle := max(cl.ThinkTime.Mean().Seconds()+work, 1e-6)
		return float64(cl.Users) * d / cycle, fmt.Sprintf("client %q users", cl.Name)
	}
	rate, key := cl.Rate, fmt.Sprintf("client %q rate", cl.Name)
	for _, p := range cl.Schedule {
		if p.Rate > rate {
			rate, key = p.Rate, fmt.Sprintf("client %q schedule", cl.Name)
		}
	}
	mult := 1.0
	for _, f := range cfg.Faults {
		if f.Kind == topology.LoadFault && f.Target == cl.Name && f.Multiply > mult {
			mult = f.Multiply
		}
	}
	if mult > 1 {
		key += " x fault multiply"
	}
	return rate * mult * d, key
}

// periodicRate is the events per second per instance of a service's
// probes and outlier detection.
func periodicRate(s topology.ServiceConfig) float64 {
	var r float64
	per := func(p time.Duration) {
		if p > 0 {
			r += 2 / p.Seconds() // the probe and its timeout
		}
	}
	if g := s.Guards.Readiness; g != nil {
		per(g.Probe.Period)
	}
	if g := s.Guards.Liveness; g != nil {
		per(g.Probe.Period)
	}
	if g := s.Guards.Outlier; g != nil {
		per(g.Interval)
	}
	return r
}

// topDrivers lists the keys behind at least 10 % of the events.
func topDrivers(m map[string]float64, total float64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	var out []string
	for _, k := range keys {
		if total > 0 && m[k] >= total/10 && len(out) < 4 {
			out = append(out, fmt.Sprintf("%s (%.0f%%)", k, 100*m[k]/total))
		}
	}
	return out
}

// String is the estimate in one line, as ressim validate prints it.
func (c Cost) String() string {
	s := fmt.Sprintf("estimated cost per run: %s events, %s series points, about %s",
		FormatCount(c.Events), FormatCount(c.SeriesPoints), FormatBytes(c.Memory))
	if len(c.Drivers) > 0 {
		s += "; driven by " + strings.Join(c.Drivers, ", ")
	}
	return s
}

// FormatCount writes a count with an SI prefix: 950, 1.2k, 3.4M, 5.6G.
func FormatCount(x float64) string {
	switch {
	case math.IsInf(x, 0) || x >= 1e15:
		return fmt.Sprintf("%.3g", x)
	case x >= 1e9:
		return fmt.Sprintf("%.1fG", x/1e9)
	case x >= 1e6:
		return fmt.Sprintf("%.1fM", x/1e6)
	case x >= 1e3:
		return fmt.Sprintf("%.1fk", x/1e3)
	}
	return fmt.Sprintf("%.0f", x)
}

// FormatBytes writes a byte count in binary units: 12 KiB, 3.4 MiB, 5.6 GiB.
func FormatBytes(x float64) string {
	switch {
	case x >= 1<<40 || math.IsInf(x, 0):
		return fmt.Sprintf("%.3g TiB", x/(1<<40))
	case x >= 1<<30:
		return fmt.Sprintf("%.1f GiB", x/(1<<30))
	case x >= 1<<20:
		return fmt.Sprintf("%.1f MiB", x/(1<<20))
	}
	return fmt.Sprintf("%.0f KiB", x/(1<<10))
}

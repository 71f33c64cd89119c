package topology

import (
	"time"

	"github.com/ressim/ressim/sim/metrics"
)

// Result is what one run measured.
type Result struct {
	Name     string
	Seed     uint64
	Duration time.Duration
	Warmup   time.Duration
	// Events is the number of engine events fired.
	Events uint64
	// Services in declaration order.
	Services []ServiceResult
	// Clients in declaration order.
	Clients []ClientResult
	// Series is the per-interval time series of the whole run.
	Series *metrics.TimeSeries
}

// ServiceResult is one service's statistics over the measurement window.
type ServiceResult struct {
	Name    string
	Workers int
	// Arrivals, Completed and Rejected count events inside the window.
	Arrivals, Completed, Rejected uint64
	// InFlightAtEnd is the number of requests in the service (waiting or
	// in service) when the run ended.
	InFlightAtEnd int
	// Delayed counts the requests among Sojourn's that waited in the queue
	// before service (Erlang C's P(wait) is Delayed / Sojourn.Count()).
	Delayed uint64
	// Throughput is Completed per second of window.
	Throughput float64
	// Sojourn, Wait and Service are the distributions of time in system,
	// time in queue and time in service, over requests that arrived inside
	// the window and completed before the end.
	Sojourn, Wait, Service *metrics.Histogram
	// MeanInSystem, MeanQueue and MeanBusy are time averages over the
	// window of the number of requests in the service, waiting, and in
	// service.
	MeanInSystem, MeanQueue, MeanBusy float64
	// Utilization is MeanBusy / Workers.
	Utilization float64
}

// ClientResult is one client's statistics over the window.
type ClientResult struct {
	Name   string
	Target string
	// Sent counts requests sent inside the window.
	Sent uint64
}

func (m *Model) result() *Result {
	w := m.window()
	res := &Result{
		Name:     m.cfg.Name,
		Seed:     m.cfg.Seed,
		Duration: m.cfg.Duration,
		Warmup:   m.cfg.Warmup,
		Events:   m.sim.Fired(),
		Series:   m.series.ts,
	}
	for _, s := range m.services {
		st := &s.st
		a := st.areas(m.end)
		mean := func(i int) float64 { return (a[i] - st.warmArea[i]) / float64(w) }
		r := ServiceResult{
			Name:          s.cfg.Name,
			Workers:       s.cfg.Workers,
			Arrivals:      st.arrivals,
			Completed:     st.completed,
			Rejected:      st.rejected,
			Delayed:       st.delayed,
			InFlightAtEnd: s.inst.busy + s.inst.queue.len(),
			Throughput:    float64(st.completed) / w.Seconds(),
			Sojourn:       &st.sojourn,
			Wait:          &st.wait,
			Service:       &st.service,
			MeanInSystem:  mean(0),
			MeanQueue:     mean(1),
			MeanBusy:      mean(2),
		}
		r.Utilization = r.MeanBusy / float64(s.cfg.Workers)
		res.Services = append(res.Services, r)
	}
	for _, c := range m.clients {
		res.Clients = append(res.Clients, ClientResult{Name: c.cfg.Name, Target: c.cfg.Target, Sent: c.sent})
	}
	return res
}

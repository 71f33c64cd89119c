package topology

import (
	"time"

	"github.com/ressim/ressim/sim/engine"
	"github.com/ressim/ressim/sim/metrics"
)

// seriesRecorder closes one time-series interval at every interval
// boundary (and at the end of the run), for every service.
type seriesRecorder struct {
	m        *Model
	interval time.Duration
	ts       *metrics.TimeSeries
	last     engine.Time // start of the open interval
	err      error       // the first error met; it stops the run
	cols     []serviceColumns
}

// serviceColumns are one service's time-series columns.
type serviceColumns struct {
	arrivals, throughput, rejected *metrics.Column
	inSystem, queue, busy          *metrics.Column
	p50, p90, p99, p999, mean      *metrics.Column
}

func newSeriesRecorder(m *Model, interval time.Duration) (*seriesRecorder, error) {
	ts, err := metrics.NewTimeSeries(interval)
	if err != nil {
		return nil, err
	}
	r := &seriesRecorder{m: m, interval: interval, ts: ts}
	var firstErr error
	col := func(entity, metric, unit string) *metrics.Column {
		c, err := ts.Column(entity, metric, unit)
		if err != nil && firstErr == nil {
			firstErr = err
		}
		return c
	}
	for _, s := range m.services {
		n := s.cfg.Name
		r.cols = append(r.cols, serviceColumns{
			arrivals:   col(n, "arrivals", "req/s"),
			throughput: col(n, "throughput", "req/s"),
			rejected:   col(n, "rejected", "req/s"),
			inSystem:   col(n, "in_system", "requests"),
			queue:      col(n, "queue_length", "requests"),
			busy:       col(n, "busy_workers", "workers"),
			mean:       col(n, "latency_mean", "ms"),
			p50:        col(n, "latency_p50", "ms"),
			p90:        col(n, "latency_p90", "ms"),
			p99:        col(n, "latency_p99", "ms"),
			p999:       col(n, "latency_p999", "ms"),
		})
	}
	return r, firstErr
}

func (r *seriesRecorder) start() {
	r.m.sim.At(r.next(0), r, nil)
}

// next returns the end of the interval starting at t.
func (r *seriesRecorder) next(t engine.Time) engine.Time {
	n := t.Add(r.interval)
	if n > r.m.end {
		n = r.m.end
	}
	return n
}

// Handle closes the interval [r.last, now).
func (r *seriesRecorder) Handle(now engine.Time, _ any) {
	span := now.Sub(r.last).Seconds()
	if err := r.ts.AppendInterval(int64(r.last), int64(now)); err != nil {
		r.err = err
		r.m.sim.Stop()
		return
	}
	for i, s := range r.m.services {
		st := &s.st
		c := &r.cols[i]
		a := st.areas(now)
		c.arrivals.Set(float64(st.ivArrivals) / span)
		c.throughput.Set(float64(st.ivCompleted) / span)
		c.rejected.Set(float64(st.ivRejected) / span)
		c.inSystem.Set((a[0] - st.ivArea[0]) / float64(now-r.last))
		c.queue.Set((a[1] - st.ivArea[1]) / float64(now-r.last))
		c.busy.Set((a[2] - st.ivArea[2]) / float64(now-r.last))
		h := &st.ivSojourn
		if h.Count() > 0 {
			c.mean.Set(h.Mean() / 1e6)
			c.p50.Set(float64(h.Quantile(0.50)) / 1e6)
			c.p90.Set(float64(h.Quantile(0.90)) / 1e6)
			c.p99.Set(float64(h.Quantile(0.99)) / 1e6)
			c.p999.Set(float64(h.Quantile(0.999)) / 1e6)
		}
		st.ivArrivals, st.ivCompleted, st.ivRejected = 0, 0, 0
		st.ivSojourn.Reset()
		st.ivArea = a
	}
	r.last = now
	if now < r.m.end {
		r.m.sim.At(r.next(now), r, nil)
	}
}

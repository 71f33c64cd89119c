package topology

import (
	"math/rand/v2"

	"github.com/ressim/ressim/sim/engine"
	"github.com/ressim/ressim/sim/metrics"
)

// service is a named pool of identical instances. The first model has one
// instance per service; the balancer comes with the service graph.
type service struct {
	m    *Model
	cfg  ServiceConfig
	rng  *rand.Rand
	inst *instance
	st   serviceStats
}

// instance is one copy of a service: Workers servers and a FIFO queue.
type instance struct {
	svc   *service
	busy  int
	queue fifo
}

func newService(m *Model, cfg ServiceConfig) *service {
	s := &service{m: m, cfg: cfg, rng: m.sim.Stream("service/" + cfg.Name)}
	s.inst = &instance{svc: s}
	return s
}

// arrive admits r to the service: straight to a free worker, into the
// queue, or rejected when the queue is full.
func (s *service) arrive(now engine.Time, r *request) {
	in := s.inst
	inWindow := now >= s.m.warmup
	if inWindow {
		s.st.arrivals++
	}
	s.st.ivArrivals++
	r.enqueued = now
	switch {
	case in.busy < s.cfg.Workers:
		s.st.inSystem.Add(int64(now), 1)
		in.startService(now, r)
	case s.cfg.QueueCapacity < 0 || in.queue.len() < s.cfg.QueueCapacity:
		s.st.inSystem.Add(int64(now), 1)
		s.st.queue.Add(int64(now), 1)
		in.queue.push(r)
	default:
		if inWindow {
			s.st.rejected++
		}
		s.st.ivRejected++
		s.m.pool.put(r)
	}
}

func (in *instance) startService(now engine.Time, r *request) {
	s := in.svc
	in.busy++
	s.st.busy.Add(int64(now), 1)
	r.started = now
	s.m.sim.After(s.cfg.ServiceTime.Sample(s.rng), in, r)
}

// Handle is a service completion.
func (in *instance) Handle(now engine.Time, arg any) {
	r := arg.(*request)
	s := in.svc
	st := &s.st
	in.busy--
	st.busy.Add(int64(now), -1)
	st.inSystem.Add(int64(now), -1)
	sojourn := int64(now - r.sent)
	st.ivCompleted++
	st.ivSojourn.Record(sojourn)
	if now >= s.m.warmup {
		st.completed++
	}
	if r.measured {
		st.sojourn.Record(sojourn)
		st.wait.Record(int64(r.started - r.enqueued))
		if r.started > r.enqueued {
			st.delayed++
		}
		st.service.Record(int64(now - r.started))
	}
	s.m.pool.put(r)
	if in.queue.len() > 0 {
		st.queue.Add(int64(now), -1)
		in.startService(now, in.queue.pop())
	}
}

// serviceStats accumulates one service's statistics. Levels integrate
// from time 0; the window's share is the difference from the snapshot
// taken at the end of warm-up.
type serviceStats struct {
	arrivals, completed, rejected uint64 // inside the window
	delayed                       uint64 // measured requests that waited for a worker
	sojourn, wait, service        metrics.Histogram
	inSystem, queue, busy         metrics.Count
	warmArea                      [3]float64 // level areas at the end of warm-up

	// Current time-series interval.
	ivArrivals, ivCompleted, ivRejected uint64
	ivSojourn                           metrics.Histogram
	ivArea                              [3]float64 // level areas at the interval's start
}

func (st *serviceStats) areas(now engine.Time) [3]float64 {
	t := int64(now)
	return [3]float64{st.inSystem.Area(t), st.queue.Area(t), st.busy.Area(t)}
}

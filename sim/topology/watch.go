package topology

import (
	"time"

	"github.com/ressim/ressim/sim/engine"
	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/health"
	"github.com/ressim/ressim/sim/policies/outlier"
)

// Callers watch a service's instances: outlier detection ejects failing
// ones from the balancers, readiness probes remove unready ones.

// watch is a service's outlier detector and readiness probes.
type watch struct {
	outlier   *outlier.Detector
	events    []outlier.Event
	ejections uint64 // window
	probes    []*health.Probe
	deps      []*service // the dependencies whose health the probe includes
	outlierH  engine.HandlerFunc
	probeH    probeHandler
	live      []*health.Probe // liveness probes, per instance
	liveH     livenessHandler
	restartH  restartHandler
	restarts  uint64 // window
}

func (s *service) buildGuards() error {
	g := &s.cfg.Guards
	if g.Outlier != nil {
		cfg := *g.Outlier
		cfg.Rand = s.m.sim.Stream("outlier/" + s.cfg.Name)
		d, err := outlier.New(cfg, len(s.insts), 0)
		if err != nil {
			return err
		}
		s.outlier = &watch{outlier: d}
		s.outlier.outlierH = s.outlierTick
	}
	if r := g.Readiness; r != nil {
		w := s.outlier
		if w == nil {
			w = &watch{}
		}
		s.watch = w
		for range s.insts {
			p, err := health.NewReadiness(r.Probe, 0)
			if err != nil {
				return err
			}
			w.probes = append(w.probes, p)
		}
		w.probeH.s = s
	}
	if s.outlier != nil {
		s.watch = s.outlier
	}
	if l := g.Liveness; l != nil {
		w := s.watch
		if w == nil {
			w = &watch{}
			s.watch = w
		}
		for range s.insts {
			p, err := health.NewLiveness(l.Probe, 0)
			if err != nil {
				return err
			}
			w.live = append(w.live, p)
		}
		w.liveH.s, w.restartH.s = s, s
	}
	return nil
}

// startWatch schedules the detector's sweeps and the probes, once the
// call sites exist.
func (s *service) startWatch() {
	w := s.watch
	if w == nil {
		return
	}
	if w.outlier != nil {
		s.m.at(engine.Time(w.outlier.NextTickAt()), w.outlierH, nil)
	}
	if r := s.cfg.Guards.Readiness; r != nil {
		for _, dep := range r.DependsOn {
			w.deps = append(w.deps, s.m.byName[dep])
		}
		for i, p := range w.probes {
			if at, ok := p.NextProbeAt(); ok {
				s.m.at(engine.Time(at), &w.probeH, s.insts[i])
			}
		}
	}
	for i, p := range w.live {
		if at, ok := p.NextProbeAt(); ok {
			s.m.at(engine.Time(at), &w.liveH, s.insts[i])
		}
	}
}

// livenessHandler runs one instance's liveness probe.
type livenessHandler struct{ s *service }

func (h *livenessHandler) Handle(now engine.Time, arg any) {
	s := h.s
	in := arg.(*instance)
	w := s.watch
	p := w.live[in.idx]
	timeout := s.cfg.Guards.Liveness.Probe.Timeout
	passed := !in.down() && in.frozen(now, now+1) == 0 && in.oldestWait(now) <= timeout
	if tr, changed := p.Observe(now.Duration(), passed, 0); changed && tr.To == health.Restarting {
		if now >= s.m.warmup {
			w.restarts++
		}
		in.logLiveness(now, health.Restarting)
		if !in.down() {
			in.crash(now)
		}
		rt := s.cfg.Guards.Liveness.RestartTime
		if rt == 0 {
			rt = 10 * time.Second
		}
		s.m.after(rt, &w.restartH, in)
		return
	}
	if at, ok := p.NextProbeAt(); ok && engine.Time(at) > now {
		s.m.at(engine.Time(at), h, in)
	}
}

// restartHandler brings a restarted instance back.
type restartHandler struct{ s *service }

func (h *restartHandler) Handle(now engine.Time, arg any) {
	s := h.s
	in := arg.(*instance)
	in.mark(outDown, false)
	s.syncWorkers(now)
	in.logLiveness(now, health.Live)
	p := s.watch.live[in.idx]
	p.Restarted(now.Duration())
	if at, ok := p.NextProbeAt(); ok {
		s.m.at(engine.Time(at), &s.watch.liveH, in)
	}
}

// outlierRecord feeds an attempt's outcome at in to the detector.
func (s *service) outlierRecord(now engine.Time, in *instance, o policies.Outcome) {
	w := s.outlier
	if ev, ok := w.outlier.Record(now.Duration(), in.idx, o); ok {
		s.applyOutlier(now, ev)
	}
}

func (s *service) applyOutlier(now engine.Time, ev outlier.Event) {
	in := s.insts[ev.Host]
	s.logOutlier(now, ev)
	switch ev.Kind {
	case outlier.Ejected:
		in.mark(outEjected, true)
		if now >= s.m.warmup {
			s.outlier.ejections++
		}
	case outlier.Unejected:
		in.mark(outEjected, false)
	}
}

// outlierTick runs the detector's interval sweep.
func (s *service) outlierTick(now engine.Time, _ any) {
	w := s.outlier
	w.events = w.outlier.Tick(now.Duration(), w.events[:0])
	for _, ev := range w.events {
		s.applyOutlier(now, ev)
	}
	if next := engine.Time(w.outlier.NextTickAt()); next > now {
		s.m.at(next, w.outlierH, nil)
	}
}

// probeHandler runs one instance's readiness probe.
type probeHandler struct{ s *service }

func (h *probeHandler) Handle(now engine.Time, arg any) {
	s := h.s
	in := arg.(*instance)
	w := s.watch
	p := w.probes[in.idx]
	// The probe is a request like any other: it fails while the instance
	// is frozen, or when it would wait in the queue past its timeout.
	passed := !in.down() && in.frozen(now, now+1) == 0 && in.oldestWait(now) <= s.cfg.Guards.Readiness.Probe.Timeout
	// A probe that includes a dependency pings its health: it fails while
	// the dependency has no instance up.
	for _, dep := range w.deps {
		if !dep.anyUp() {
			passed = false
		}
	}
	if tr, changed := p.Observe(now.Duration(), passed, 0); changed {
		was := in.ready()
		in.mark(outUnready, tr.To != health.Ready && tr.To != health.Live)
		in.logReadiness(now, was)
	}
	if at, okAt := p.NextProbeAt(); okAt && engine.Time(at) > now {
		s.m.at(engine.Time(at), h, in)
	}
}

// anyUp reports whether some instance of s is up, in rotation and ready.
func (s *service) anyUp() bool {
	for _, in := range s.insts {
		if !in.down() && !in.parked() && in.ready() {
			return true
		}
	}
	return false
}

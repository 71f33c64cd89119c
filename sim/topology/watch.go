package topology

import (
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
	probeMark []probeMark // per instance: the dependency counts at its last probe
	deps      []*callSite // the sites whose success the probe includes
	outlierH  engine.HandlerFunc
	probeH    probeHandler
}

type probeMark struct{ ok, total uint64 }

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
			w.probeMark = append(w.probeMark, probeMark{})
		}
		w.probeH.s = s
	}
	if s.outlier != nil {
		s.watch = s.outlier
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
		s.m.sim.At(engine.Time(w.outlier.NextTickAt()), w.outlierH, nil)
	}
	if r := s.cfg.Guards.Readiness; r != nil {
		for _, dep := range r.DependsOn {
			for _, site := range s.m.sites {
				if site.caller == s.cfg.Name && site.callee == dep {
					w.deps = append(w.deps, site)
				}
			}
		}
		for i, p := range w.probes {
			if at, ok := p.NextProbeAt(); ok {
				s.m.sim.At(engine.Time(at), &w.probeH, s.insts[i])
			}
		}
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
	switch ev.Kind {
	case outlier.Ejected:
		in.ejected = true
		if now >= s.m.warmup {
			s.outlier.ejections++
		}
	case outlier.Unejected:
		in.ejected = false
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
		s.m.sim.At(next, w.outlierH, nil)
	}
}

// probeHandler runs one instance's readiness probe.
type probeHandler struct{ s *service }

func (h *probeHandler) Handle(now engine.Time, arg any) {
	s := h.s
	in := arg.(*instance)
	w := s.watch
	p := w.probes[in.idx]
	passed := !in.down && in.frozen(now, now+1) == 0
	// The dependencies' health over the probe period: calls from this
	// service that succeeded (over all its instances: a shared downstream
	// failure looks the same from each).
	var ok, total uint64
	for _, site := range w.deps {
		ok += site.okAll
		total += site.totalAll
	}
	mark := &w.probeMark[in.idx]
	if dt := total - mark.total; dt > 0 && 2*(ok-mark.ok) < dt {
		passed = false
	}
	*mark = probeMark{ok, total}
	if tr, changed := p.Observe(now.Duration(), passed, 0); changed {
		in.ready = tr.To == health.Ready || tr.To == health.Live
	}
	if at, okAt := p.NextProbeAt(); okAt && engine.Time(at) > now {
		s.m.sim.At(engine.Time(at), h, in)
	}
}

package topology

import (
	"github.com/ressim/ressim/sim/dist"
	"github.com/ressim/ressim/sim/engine"
)

// redrawMemoryless redraws, at a branch, the pending delays whose law is
// memoryless: the next arrival of an open-loop client at a constant rate
// (a Poisson process), the rest of an exponential work step, and an
// exponential timeout not cut to a deadline. Given everything before the
// branch, the time left on such a delay is the same exponential whatever
// has elapsed, so drawing it again from the branched streams changes no
// law; what it changes is that copies branched from one state differ from
// the branch on, instead of sharing every event already on the calendar
// until the first new draw (the next arrival, the head's service, every
// timeout), which made copies near-identical and rare-event splitting
// degenerate. Models with faults or actions, whose delays may be
// stretched or cut, keep their calendar as it is.
func (m *Model) redrawMemoryless(now engine.Time) {
	if len(m.faults) > 0 || len(m.actions) > 0 {
		return
	}
	for _, c := range m.clients {
		if c.arrEv != 0 && c.cfg.Users == 0 && len(c.segs) == 1 && c.segs[0].r0 == c.segs[0].r1 && c.segs[0].r0 > 0 {
			m.sim.Cancel(c.arrEv)
			if t, ok := c.nextArrival(now); ok {
				c.arrEv = c.m.at(t, c, nil)
			}
		}
	}
	for _, s := range m.services {
		for _, in := range s.insts {
			plain := s.cfg.Contention == 0 && in.latMult == 1 && in.latAdd == 0 && len(in.sticky) == 0 && len(in.freezes) == 0
			for _, a := range in.running {
				if plain && a.workEv != 0 && a.step < len(a.site.handler.steps) {
					if st := &a.site.handler.steps[a.step]; st.Kind == WorkStep && st.Work.Kind() == dist.Exponential {
						m.sim.Cancel(a.workEv)
						a.workStart = now
						a.workEv = m.after(st.Work.DrawFrom(s.rng), &m.hWork, a)
					}
				}
				m.redrawTimeout(a)
			}
			q := &in.queue
			for i := 0; i < q.n; i++ {
				if a := q.buf[q.slot(i)]; a != nil {
					m.redrawTimeout(a)
				}
			}
		}
	}
}

// redrawTimeout redraws a's exponential timeout, if it has one pending
// that no deadline cut.
func (m *Model) redrawTimeout(a *attempt) {
	site := a.site
	if a.timeoutEv == 0 || site == nil || site.toRng == nil || a.call == nil || a.call.dl.IsSet() {
		return
	}
	m.sim.Cancel(a.timeoutEv)
	a.timeoutEv = m.after(site.toExp.DrawFrom(site.toRng), &m.hTimeout, a)
}

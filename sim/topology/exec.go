package topology

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/dist"
	"github.com/ressim/ressim/sim/engine"
	"github.com/ressim/ressim/sim/policies"
)

// advance runs a's handler from its current step until it must wait (for
// local work or downstream calls) or is finished.
func (m *Model) advance(now engine.Time, a *attempt) {
	in := a.inst
	s := in.svc
	h := a.site.handler
	steps := h.steps
	for a.step < len(steps) {
		if s.cfg.Cancellation != CancelNever && m.cancelDue(now, a) {
			m.stopAtStep(now, a)
			return
		}
		st := &steps[a.step]
		if st.Kind == WorkStep {
			// DrawFrom, its exponential case written out: PGO inlines
			// the draw here, where it would stay a call inside DrawFrom.
			var d time.Duration
			if mean, ok := st.Work.Exponential(); ok {
				d = dist.Duration(s.rng.ExpFloat64() * mean)
			} else {
				d = st.Work.DrawFrom(s.rng)
			}
			d = in.shape(a, d)
			if a.phase != apWorking {
				m.attemptTo(now, a, apWorking, "")
			}
			if m.observe != nil {
				m.noteAttempt(now, a, fmt.Sprintf("work step %d: %v", a.step+1, d))
			}
			a.workStart, a.stepStart = now, now
			// m.after written out: PGO inlines the engine's After
			// only where its call is written.
			id, err := m.sim.After(d, &m.hWork, a)
			if err != nil {
				panic(err)
			}
			a.workEv = id
			return
		}
		m.startCalls(now, a, st)
		a.step++
		if a.pending > 0 {
			m.attemptTo(now, a, apCalling, "")
			return
		}
		if a.failed {
			break
		}
	}
	m.complete(now, a)
}

// startCalls starts the calls of a's current step st, a call step or a
// choice: those the step makes (all of a call step's, the one a choice
// picks, each with its probability), or, once a's deadline has passed,
// none, marking a failed or degraded by what the calls were.
func (m *Model) startCalls(now engine.Time, a *attempt, st *Step) {
	s := a.inst.svc
	expired := m.propagate && a.dl.Expired(now.Duration())
	pick := -1
	if st.Kind == ChooseStep {
		pick = st.choose(s.rng.Float64())
	}
	for _, ss := range a.site.handler.sites {
		if ss.step != a.step || pick >= 0 && ss.call != pick {
			continue
		}
		if ss.prob > 0 && ss.prob < 1 && s.rng.Float64() >= ss.prob {
			continue
		}
		if expired {
			// No call is made once the deadline has passed.
			if ss.critical {
				a.failed = true
			} else {
				a.degraded = true
			}
			continue
		}
		a.pending++
		m.startCall(now, ss.site, a, nil, ss.critical)
	}
}

// Handle, the work event, ends a local work step, unless a freeze held it
// up: then the work still to do (the frozen part of the step so far)
// resumes when the freeze that holds now ends, in one event. Resuming it
// at now instead, as it once did, re-checked a step caught in a freeze
// once per its own length: a 2 s freeze over 0.5 ms steps cost 4000 events
// a step, and hundreds of thousands a run, which runner.Estimate (rightly)
// did not count (TestFreezeCostsOneEventAStep, runner.TestEstimateBothWays).
// The handler is the function itself (see responseHandler.Handle).
func (h *workHandler) Handle(now engine.Time, arg any) {
	m, a := h.m, arg.(*attempt)
	a.workEv = 0
	in := a.inst
	if len(in.freezes) > 0 {
		if extra := in.frozen(a.workStart, now); extra > 0 {
			resume := in.thaw(now)
			a.workStart = resume
			a.workEv = m.after(resume.Sub(now)+extra, &m.hWork, a)
			return
		}
	}
	if a.trace != 0 {
		m.trace.add(a.trace, "work", fmt.Sprintf("work at %s[%d]", in.svc.cfg.Name, in.idx), a.stepStart, now, "")
	}
	a.step++
	if a.step >= len(a.site.handler.steps) {
		// The handler's last step: what advance would do at once, without
		// its frame (a call less on most requests).
		m.complete(now, a)
		return
	}
	m.advance(now, a)
}

// childDone records the end of one of the job's downstream calls.
func (m *Model) childDone(now engine.Time, a *attempt, critical bool, st status) {
	a.pending--
	switch st {
	case stOK:
	case stDegraded:
		a.degraded = true
	default:
		if critical {
			a.failed = true
		} else {
			a.degraded = true
		}
	}
	cancels := a.inst.svc.cfg.Cancellation != CancelNever
	if a.pending > 0 {
		if cancels && a.phase == apCalling && m.cancelDue(now, a) {
			m.stopHandler(now, a, "noticed when one of its calls returned")
		}
		return
	}
	if a.phase == apOrphaned {
		// The instance crashed while the calls were out: the work is
		// lost, and the caller gets its connection reset now.
		m.respond(now, a, stError)
		return
	}
	if cancels && m.cancelDue(now, a) {
		m.stopHandler(now, a, "noticed when its calls returned")
		return
	}
	if a.failed {
		m.complete(now, a)
		return
	}
	m.advance(now, a)
}

// complete ends a's handler: the worker is freed, the status decided and
// the response sent.
func (m *Model) complete(now engine.Time, a *attempt) {
	in := a.inst
	s := in.svc
	// The status, the outcome the limit learns and the counter, decided
	// together.
	st, o, k := stOK, policies.Success, cOK
	switch {
	case a.failed:
		st, o, k = stDepFailed, policies.Error, cDepFailed
	case in.faulty && in.faultError(a):
		st, o, k = stError, policies.Error, cError
	case a.degraded:
		st, k = stDegraded, cDegraded
	}
	in.release(now, a, o)
	// s.st.inc for both counters, with one warm-up test (-3 M in mm10).
	s.st.iv[cCompleted]++
	s.st.iv[k]++
	if now >= m.warmup {
		s.st.win[cCompleted]++
		s.st.win[k]++
	}
	sojourn := int64(now - a.arrived)
	s.st.ivSojourn.of(a.measured).Record(sojourn)
	if a.measured {
		s.st.hold.Record(int64(now - a.started))
	}
	if a.caller == cvAbandoned {
		// s.st.inc(m, now, cWasted) and the wasted time, with one warm-up
		// test (-1.6 M in the retry storm, where most completions are wasted).
		w := int64(now - a.started)
		s.st.iv[cWasted]++
		s.st.ivWastedNs += w
		if now >= m.warmup {
			s.st.win[cWasted]++
			s.st.wastedNs += w
		}
	} else if a.call.orphaned {
		m.wastedOrphan(now, a)
	}
	if m.sending == 0 && !a.site.hasNet && m.observe == nil {
		// respond, written out for an answer delivered at once: the
		// same moves and the same call to response (-14 M in mm10).
		a.status = st
		m.attemptTo(now, a, apResponding, "")
		m.hResponse.Handle(now, a)
	} else {
		m.respond(now, a, st)
	}
	in.startNext(now)
}

// respond sends a's status back to its caller, over the network if the
// call has one.
func (m *Model) respond(now engine.Time, a *attempt, st status) {
	a.status = st
	m.attemptTo(now, a, apResponding, "")
	if m.observe != nil {
		m.noteAttempt(now, a, "answers "+st.String())
	}
	if site := a.site; site.hasNet {
		d := site.network.DrawFrom(site.rng)
		if m.observe != nil {
			m.noteAttempt(now, a, "network delay "+d.String()+" back to the caller")
		}
		m.after(d, &m.hResponse, a)
		return
	}
	if m.sending > 0 {
		// Answered while its caller is still sending: deliver it by an
		// event, so the caller is not re-entered.
		m.soon(&m.hResponse, a)
		return
	}
	m.hResponse.Handle(now, a)
}

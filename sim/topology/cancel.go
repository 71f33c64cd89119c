package topology

import (
	"fmt"

	"github.com/ressim/ressim/sim/engine"
	"github.com/ressim/ressim/sim/policies"
)

// Cancellation of work in flight (ServiceConfig.Cancellation,
// Config.PropagateCancellation). An attempt is cancelled when its caller
// stops waiting (a.caller becomes cvAbandoned: a timeout, or the caller's
// own owner giving up) or, with propagated deadlines, when its deadline
// passes. A service with CancelNever never looks: none of this runs for
// it but a comparison. A cancelling service notices:
//
//   - CancelContinuous: at once, in callerGone. With propagated deadlines
//     the caller's timeout is cut to the deadline (timeoutOf), so the
//     caller giving up is the deadline passing: no event is added per
//     attempt for it.
//   - CancelAtStep and CancelContinuous: at each step boundary (advance)
//     and when a call returns (childDone), by cancelDue.
//   - Both: a queued request whose caller is gone is dropped when it
//     leaves the queue (start); continuous removes it at once from a FIFO
//     queue.
//
// A stopped handler (stopHandler) frees its worker, counts its cancelled
// work as wasted only from when its caller gave up, drops its outstanding
// calls (cancelling them with PropagateCancellation, detaching them
// otherwise, so that their results are discarded and never reach the
// recycled attempt), and sends nothing back to a caller that is gone.

// callerGone tells a's service that a's caller has stopped waiting; a is
// already cvAbandoned and let go by its caller (it is not in the pool: it
// is not done). The check inlines, and a model in which no service
// cancels stops at its first test; a service that cancels is handled out
// of line.
func (m *Model) callerGone(now engine.Time, a *attempt) {
	if m.cancels {
		m.calleeMayCancel(now, a)
	}
}

// calleeMayCancel is callerGone in a model where some service cancels.
func (m *Model) calleeMayCancel(now engine.Time, a *attempt) {
	if in := a.inst; in != nil && in.svc.cfg.Cancellation != CancelNever {
		m.noticeGone(now, a)
	}
}

// noticeGone records when a's caller gave up and, with continuous
// cancellation, stops a's handler (or takes a out of its queue) now. It
// runs inside the caller's code (a timeout, a call's release), so any
// answer it causes is delivered by an event (m.sending), never
// re-entering the caller.
func (m *Model) noticeGone(now engine.Time, a *attempt) {
	if a.gaveUp == 0 { // not already orphaned (dropKids)
		a.gaveUp = now
	}
	in := a.inst
	if in.svc.cfg.Cancellation != CancelContinuous {
		return
	}
	m.sending++
	switch a.phase {
	case apWorking, apCalling:
		m.stopHandler(now, a, "its caller stopped waiting (continuous)")
	case apQueued, apExpired:
		if in.adm.lifo == nil {
			in.queue.remove(a)
			m.dropGone(now, a, "removed from the queue: its caller stopped waiting (continuous)")
		}
	}
	m.sending--
}

// cancelDue reports whether a, running at a cancelling service, is
// cancelled: its caller is gone, or its propagated deadline has passed.
func (m *Model) cancelDue(now engine.Time, a *attempt) bool {
	return a.caller == cvAbandoned || m.propagate && a.dl.Expired(now.Duration())
}

// gaveUpAt is when a's cancellation began: its caller giving up (or the
// caller's owner being cancelled, the call going on detached), else its
// deadline.
func gaveUpAt(a *attempt) engine.Time {
	if a.gaveUp != 0 {
		return a.gaveUp
	}
	if at, ok := a.dl.Expiry(); ok {
		return engine.Time(at)
	}
	return a.started
}

// stopHandler stops a's handler (working or calling) for a cancellation:
// the worker is freed, the work done since the caller gave up counted as
// wasted, the outstanding calls dropped, and a ended; the instance then
// starts its next request.
func (m *Model) stopHandler(now engine.Time, a *attempt, why string) {
	in := a.inst
	s := in.svc
	s.st.inc(m, now, cCancelled)
	if w := int64(now - max(a.started, gaveUpAt(a))); w > 0 {
		s.st.ivWastedNs += w
		if now >= m.warmup {
			s.st.wastedNs += w
		}
	}
	if a.trace != 0 && a.phase == apWorking {
		m.trace.add(a.trace, "work", fmt.Sprintf("work at %s[%d]", s.cfg.Name, in.idx), a.stepStart, now, "cut short: cancelled")
	}
	in.release(now, a, policies.Cancelled)
	m.attemptTo(now, a, apCancelled, why)
	m.dropKids(now, a)
	m.endCancelled(now, a)
	in.startNext(now)
}

// stopAtStep stops a's handler at a step boundary. Only the observer
// reads the step's number: production builds no string.
func (m *Model) stopAtStep(now engine.Time, a *attempt) {
	why := "noticed before its next step"
	if m.observe != nil {
		why = fmt.Sprintf("noticed before step %d (%s)", a.step+1, a.inst.svc.cfg.Cancellation)
	}
	m.stopHandler(now, a, why)
}

// dropGone drops a, queued (or just dequeued) for a caller that is gone,
// without giving it a worker.
func (m *Model) dropGone(now engine.Time, a *attempt, why string) {
	in := a.inst
	in.svc.st.inc(m, now, cCancelled)
	if a.trace != 0 {
		m.trace.add(a.trace, "queue", fmt.Sprintf("queued at %s[%d], cancelled: its caller is gone", in.svc.cfg.Name, in.idx), a.arrived, now, "")
	}
	in.release(now, a, policies.Cancelled)
	m.attemptTo(now, a, apCancelled, why)
	m.endCancelled(now, a)
}

// endCancelled ends a cancelled attempt: a caller that still waits (the
// deadline passed first) is told its request was dropped; otherwise
// nothing travels back and a is done.
func (m *Model) endCancelled(now engine.Time, a *attempt) {
	if a.caller == cvWaiting {
		m.respond(now, a, stDropped)
		return
	}
	m.attemptTo(now, a, apDone, "")
	m.pool.releaseAttempt(a)
}

// wastedOrphan counts a, completed for a call whose owner was cancelled
// (a detached call), as wasted: its work after the owner's cancellation
// was for nobody.
func (m *Model) wastedOrphan(now engine.Time, a *attempt) {
	s := a.inst.svc
	s.st.inc(m, now, cWasted)
	if w := int64(now - max(a.started, a.call.orphanedAt)); w > 0 {
		s.st.ivWastedNs += w
		if now >= m.warmup {
			s.st.wastedNs += w
		}
	}
}

// linkKid records c among job's outstanding calls.
func linkKid(job *attempt, c *call) {
	c.sibNext = job.kids
	if job.kids != nil {
		job.kids.sibPrev = c
	}
	job.kids = c
}

// unlinkKid forgets c, which ends, among job's outstanding calls.
func unlinkKid(job *attempt, c *call) {
	if c.sibPrev != nil {
		c.sibPrev.sibNext = c.sibNext
	} else {
		job.kids = c.sibNext
	}
	if c.sibNext != nil {
		c.sibNext.sibPrev = c.sibPrev
	}
	c.sibPrev, c.sibNext = nil, nil
}

// dropKids lets go of a's outstanding calls, a being cancelled: with
// propagated cancellation each is abandoned (its attempt in flight
// cancelled at its callee, its retry dropped); without, each goes on
// detached, its result discarded (notifyOwner). Either way none refers to
// a any more, which the pool may now recycle.
func (m *Model) dropKids(now engine.Time, a *attempt) {
	for c := a.kids; c != nil; {
		next := c.sibNext
		c.sibPrev, c.sibNext, c.ownerJob = nil, nil, nil
		if m.cfg.PropagateCancellation {
			m.noteCall(now, c, "cancelled: its owner was cancelled")
			m.abandonCall(now, c)
		} else {
			c.orphaned, c.orphanedAt = true, now
			if a := c.cur; a != nil && a.gaveUp == 0 {
				a.gaveUp = now // its work from now on is for nobody
			}
			m.noteCall(now, c, "detached: its owner was cancelled; its result will be discarded")
		}
		c = next
	}
	a.kids, a.pending = nil, 0
}

package topology

import (
	"fmt"

	"github.com/ressim/ressim/sim/engine"
	"github.com/ressim/ressim/sim/policies"
)

// expireHandler fires when a queued request's propagated deadline passes.
type expireHandler struct{ m *Model }

func (h *expireHandler) Handle(now engine.Time, arg any) { h.m.queueExpired(now, arg.(*attempt)) }

// watchExpiry schedules the event at the deadline of a, just queued, if
// the service knows one. The event is cancelled when a leaves the queue
// first (leaveQueue), which is what usually happens, so it goes on the
// service's expiry lane: a cancelled event there costs no heap entry.
// The check of the lane is inline; most services have none.
func (in *instance) watchExpiry(now engine.Time, a *attempt) {
	if in.svc.expiry != nil {
		in.scheduleExpiry(now, a)
	}
}

func (in *instance) scheduleExpiry(now engine.Time, a *attempt) {
	s := in.svc
	at, ok := a.dl.Expiry()
	if !ok {
		return
	}
	id, err := s.expiry.At(max(engine.Time(at), now), &s.m.hExpire, a)
	if err != nil {
		panic(err)
	}
	a.expireEv = id
}

// queueExpired handles the passing of a queued request's deadline: an
// OnExpiry queue removes it and answers it as dropped; an AtDequeue queue
// (a server without cancellation) keeps it in its place, counted from now
// on as expired rather than waiting.
func (m *Model) queueExpired(now engine.Time, a *attempt) {
	a.expireEv = 0
	in := a.inst
	s := in.svc
	if s.cfg.Abandonment == AtDequeue {
		m.attemptTo(now, a, apExpired, "its deadline passed; it stays queued (at_dequeue)")
		a.qExpired = true
		s.st.queue.Dec(int64(now))
		s.st.inSystem.Dec(int64(now))
		s.st.expired.Inc(int64(now))
		return
	}
	in.queue.remove(a)
	if a.trace != 0 {
		m.trace.add(a.trace, "queue", fmt.Sprintf("queued at %s[%d], abandoned: deadline passed", s.cfg.Name, in.idx), a.arrived, now, "")
	}
	s.st.inc(m, now, cDropped)
	in.leave(now, a, stDropped, policies.Rejected, "abandoned in the queue: its deadline passed (on_expiry)")
}

// leaveQueue accounts for a leaving the queue (to be served or dropped):
// its deadline event is cancelled and it stops counting as waiting, or as
// expired if its deadline had passed in an AtDequeue queue.
func (in *instance) leaveQueue(now engine.Time, a *attempt) {
	s := in.svc
	if a.expireEv != 0 {
		s.m.sim.Cancel(a.expireEv)
		a.expireEv = 0
	}
	if a.qExpired {
		s.st.expired.Dec(int64(now))
		return
	}
	s.st.queue.Dec(int64(now))
}

// leaveSystem stops counting a as in the system, unless it already had
// when it expired in the queue.
func (in *instance) leaveSystem(now engine.Time, a *attempt) {
	if !a.qExpired {
		in.svc.st.inSystem.Dec(int64(now))
	}
}

package topology

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/engine"
)

// The model schedules every event through at and after. The engine
// refuses an event only for a programmer error (an instant before now, a
// nil handler): it has no runtime condition under which scheduling fails
// (a stopped Sim still accepts events; they fire when it resumes). So an
// error here is a bug in the model, and it panics at the call, naming the
// handler, rather than dropping the event and leaving its request hanging
// without a sign.

// at schedules h.Handle(t, arg) and returns the event's id, for Cancel.
// It panics if t is before now or h is nil.
func (m *Model) at(t engine.Time, h engine.Handler, arg any) engine.EventID {
	id, err := m.sim.At(t, h, arg)
	if err != nil {
		scheduleFailed(err, h)
	}
	return id
}

// after schedules h.Handle(now+d, arg) and returns the event's id, for
// Cancel. It panics if d is negative (now+d is then in the past) or h is
// nil. It goes to Sim.At directly, one call fewer than Sim.After.
func (m *Model) after(d time.Duration, h engine.Handler, arg any) engine.EventID {
	id, err := m.sim.At(m.sim.Now().Add(d), h, arg)
	if err != nil {
		scheduleFailed(err, h)
	}
	return id
}

// scheduleFailed reports a scheduling bug. It is kept out of line so that
// at and after stay lean on the hot path.
//
//go:noinline
func scheduleFailed(err error, h engine.Handler) {
	panic(fmt.Sprintf("topology: scheduling %T: %v (a bug in the model: the event would never fire)", h, err))
}

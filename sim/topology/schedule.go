package topology

import (
	"time"

	"github.com/ressim/ressim/sim/dist"

	"github.com/ressim/ressim/sim/engine"
)

// The model schedules every event through at and after. The engine
// refuses an event only for a programmer error (an instant before now, a
// nil handler): it has no runtime condition under which scheduling fails
// (a stopped Sim still accepts events; they fire when it resumes). So an
// error here is a bug in the model, and it panics at the call with the
// engine's error, which names the handler's type, rather than dropping the
// event and leaving its request hanging without a sign. Panicking with
// the error as it is keeps at and after small enough to inline: they are
// on the path of every event.

// at schedules h.Handle(t, arg) and returns the event's id, for Cancel.
// It panics if t is before now or h is nil.
func (m *Model) at(t engine.Time, h engine.Handler, arg any) engine.EventID {
	id, err := m.sim.At(t, h, arg)
	if err != nil {
		panic(err)
	}
	return id
}

// after schedules h.Handle(now+d, arg) and returns the event's id, for
// Cancel. It panics if d is negative (now+d is then in the past) or h is
// nil.
func (m *Model) after(d time.Duration, h engine.Handler, arg any) engine.EventID {
	id, err := m.sim.After(d, h, arg)
	if err != nil {
		panic(err)
	}
	return id
}

// source returns the model's random stream of the given name as a
// dist.Source (engine.Sim.SeedStream): the stream Stream(name) would give,
// for the draws made per event, which a Source makes without an interface
// call. Branch reseeds it like any stream.
func (m *Model) source(name string) *dist.Source {
	src := dist.NewSource(0, 0)
	m.sim.SeedStream(name, src)
	return src
}

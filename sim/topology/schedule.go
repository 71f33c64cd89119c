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

// soon schedules h.Handle(now, arg) for the current instant, for an event
// no one cancels: by the engine's Then when nothing else is pending for
// the instant (no record, no queue slot), else as after(0) would. Either
// way it fires where after(0) would fire it (engine.Sim.Then).
func (m *Model) soon(h engine.Handler, arg any) {
	if !m.sim.Then(h, arg) {
		m.after(0, h, arg)
	}
}

// thenEvent is the EventID a call keeps for a retry that the engine's Then
// took (retryNow): no record has its index, so Cancel ignores it, and
// releaseHeld cancels it with CancelThen.
const thenEvent = ^engine.EventID(0)

// retryNow schedules c's retry at t through the engine's Then, when t is
// now and Then takes it, and returns thenEvent; else it schedules nothing
// and returns 0, and the caller schedules the retry with at. The two
// steps are the callers' so that this one inlines (Then does too): the
// retry storm's immediate retries make no call (-13 M instructions).
func (m *Model) retryNow(now, t engine.Time, c *call) engine.EventID {
	if t == now && m.sim.Then(&m.hRetry, c) {
		return thenEvent
	}
	return 0
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

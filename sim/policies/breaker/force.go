package breaker

import "time"

// Mode says who decides a breaker's state: its state machine (Auto), or an
// operator who forced it open or closed (Force).
type Mode uint8

const (
	// Auto: the state machine decides (the default).
	Auto Mode = iota
	// ForcedOpen: every call is refused, as in the open state, with no
	// open pause: the breaker stays open until forced otherwise.
	ForcedOpen
	// ForcedClosed: every call is admitted, as in the closed state, and
	// no result is recorded: the breaker cannot trip.
	ForcedClosed
)

// String returns "auto", "open" or "closed".
func (m Mode) String() string {
	switch m {
	case Auto:
		return "auto"
	case ForcedOpen:
		return "open"
	case ForcedClosed:
		return "closed"
	}
	return "unknown"
}

// Force puts the breaker in mode m at instant now, as Resilience4j's
// transitionToForcedOpenState, transitionToDisabledState and
// transitionToClosedState do, and returns the transition (ok is false if
// the breaker was already in mode m: nothing changes).
//
// ForcedOpen moves the breaker to Open (reason Forced): Allow refuses every
// call and NextProbeAt reports no pause, so the breaker never moves to
// half-open by itself. ForcedClosed moves it to Closed (reason Forced):
// Allow admits every call and Record ignores every result, so the window
// stays empty and the breaker cannot trip. Auto hands the breaker back to
// its state machine from a stated state: Closed (reason Released), with an
// empty window and no consecutive trips, as a breaker that has just
// closed, whatever it was before it was forced.
//
// Every Force that changes the mode is a transition: the generation is
// incremented, so the permits issued before it are ignored by Record, and
// the window is cleared.
func (b *Breaker) Force(now time.Duration, m Mode) (Transition, bool) {
	now = b.clamp(now)
	if m == b.forced || m > ForcedClosed {
		return Transition{}, false
	}
	b.forced = m
	b.cw.reset()
	b.tw.reset()
	switch m {
	case ForcedOpen:
		return b.move(now, Open, Forced), true
	case ForcedClosed:
		return b.move(now, Closed, Forced), true
	}
	b.trips = 0
	return b.move(now, Closed, Released), true
}

// Mode returns who decides the breaker's state: Auto, or the mode it was
// forced in.
func (b *Breaker) Mode() Mode { return b.forced }

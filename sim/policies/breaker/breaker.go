package breaker

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

// Breaker is a circuit breaker for one (dependency, operation) pair. Create
// it with New. It is not safe for concurrent use.
type Breaker struct {
	cfg       Config
	minCalls  int
	isFailure func(policies.Outcome) bool

	state  State
	forced Mode          // Auto, or the mode Force put it in (force.go)
	gen    uint64        // incremented on every transition; starts at 1
	last   time.Duration // latest instant seen
	seen   bool          // whether last is set
	trips  int           // consecutive trips since the last close

	openUntil time.Duration // end of the open pause, while Open

	// Half-open probe accounting for the current generation.
	probesAdmitted  int // admitted and not given back
	probesSucceeded int

	cw countWindow
	tw timeWindow
}

// New returns a closed breaker configured by cfg, or an error wrapping
// ErrInvalidConfig.
func New(cfg Config) (*Breaker, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("breaker.New: %w", err)
	}
	b := &Breaker{cfg: cfg, minCalls: cfg.MinimumNumberOfCalls, isFailure: cfg.IsFailure, gen: 1}
	if b.isFailure == nil {
		b.isFailure = policies.Outcome.IsFailure
	}
	switch cfg.SlidingWindowType {
	case CountBased:
		b.cw.ring = make([]class, cfg.SlidingWindowSize)
		b.minCalls = min(b.minCalls, cfg.SlidingWindowSize)
	case TimeBased:
		b.tw.buckets = make([]bucket, cfg.SlidingWindowSize)
		b.tw.width = cfg.bucket()
	}
	return b, nil
}

// Config returns the breaker's configuration.
func (b *Breaker) Config() Config { return b.cfg }

// clamp records now as the latest instant and returns the instant to use.
func (b *Breaker) clamp(now time.Duration) time.Duration {
	if b.seen && now < b.last {
		return b.last
	}
	b.last, b.seen = now, true
	return now
}

// Allow reports whether a call may be made at instant now. If so, it returns
// the Permit to pass to Record with the call's result. In open state at or
// after NextProbeAt, Allow first moves the breaker to half-open.
func (b *Breaker) Allow(now time.Duration) (Permit, bool) {
	now = b.clamp(now)
	b.refresh(now)
	switch b.state {
	case Closed: // and ForcedClosed
		return Permit{gen: b.gen}, true
	case HalfOpen:
		if b.probesAdmitted < b.cfg.PermittedNumberOfCallsInHalfOpenState {
			b.probesAdmitted++
			return Permit{gen: b.gen}, true
		}
	}
	return Permit{}, false
}

// Record feeds back the result of a call admitted by Allow: its outcome and
// its latency. It returns the transition the result caused, if any. Results
// whose permit was issued before the breaker's last transition (a different
// generation), and the zero Permit, are ignored.
func (b *Breaker) Record(now time.Duration, p Permit, o policies.Outcome, latency time.Duration) (Transition, bool) {
	now = b.clamp(now)
	if p.gen != b.gen || b.forced != Auto {
		return Transition{}, false
	}
	local := o.IsLocal()
	k := success
	switch {
	case local:
	case b.isFailure(o):
		k = failure
	case latency > b.cfg.SlowCallDurationThreshold:
		k = slow
	}
	switch b.state {
	case Closed:
		if local {
			return Transition{}, false
		}
		c := b.add(now, k)
		if c.Calls < b.minCalls {
			return Transition{}, false
		}
		if float64(c.Failures)*100 >= b.cfg.FailureRateThreshold*float64(c.Calls) {
			return b.trip(now, FailureRate), true
		}
		if float64(c.Slow)*100 >= b.cfg.SlowCallRateThreshold*float64(c.Calls) {
			return b.trip(now, SlowCallRate), true
		}
	case HalfOpen:
		switch {
		case local:
			b.probesAdmitted-- // give the probe slot back
		case k != success:
			return b.trip(now, ProbeFailed), true
		default:
			b.probesSucceeded++
			if b.probesSucceeded >= b.cfg.PermittedNumberOfCallsInHalfOpenState {
				return b.close(now), true
			}
		}
	}
	return Transition{}, false
}

// State returns the state at instant now, moving from open to half-open if
// the open pause has ended.
func (b *Breaker) State(now time.Duration) State {
	b.refresh(b.clamp(now))
	return b.state
}

// Refresh applies the lazy open to half-open move if the open pause has
// ended by now, and returns that transition. Call it at NextProbeAt to
// observe the transition as an event.
func (b *Breaker) Refresh(now time.Duration) (Transition, bool) {
	return b.refresh(b.clamp(now))
}

// NextProbeAt returns the instant the open pause ends, when the breaker is
// open; ok is false in any other state, and while forced (Force).
func (b *Breaker) NextProbeAt() (at time.Duration, ok bool) {
	if b.state != Open || b.forced != Auto {
		return 0, false
	}
	return b.openUntil, true
}

// Generation returns the current generation: 1 at creation, incremented on
// every transition.
func (b *Breaker) Generation() uint64 { return b.gen }

// Trips returns the number of consecutive trips since the breaker last
// closed.
func (b *Breaker) Trips() int { return b.trips }

// Counts returns the sliding window's counts at instant now, dropping the
// expired buckets of a time-based window. The window is filled only while
// closed; it keeps the calls that tripped the breaker while open or
// half-open, and is cleared when the breaker closes. See Probes for the
// half-open probes.
func (b *Breaker) Counts(now time.Duration) Counts {
	now = b.clamp(now)
	if b.cfg.SlidingWindowType == TimeBased {
		b.tw.advance(now)
		return b.tw.counts
	}
	return b.cw.counts
}

// Probes returns the number of half-open probes admitted (and not given
// back) and how many of them have succeeded, in the current generation.
func (b *Breaker) Probes() (admitted, succeeded int) {
	return b.probesAdmitted, b.probesSucceeded
}

func (b *Breaker) add(now time.Duration, k class) Counts {
	if b.cfg.SlidingWindowType == TimeBased {
		b.tw.add(now, k)
		return b.tw.counts
	}
	b.cw.add(k)
	return b.cw.counts
}

func (b *Breaker) refresh(now time.Duration) (Transition, bool) {
	if b.state != Open || now < b.openUntil || b.forced != Auto {
		return Transition{}, false
	}
	return b.move(now, HalfOpen, PauseElapsed), true
}

func (b *Breaker) trip(now time.Duration, r Reason) Transition {
	b.trips++
	b.openUntil = now + b.cfg.openPause(b.trips)
	return b.move(now, Open, r)
}

func (b *Breaker) close(now time.Duration) Transition {
	b.trips = 0
	b.cw.reset()
	b.tw.reset()
	return b.move(now, Closed, ProbesSucceeded)
}

func (b *Breaker) move(now time.Duration, to State, r Reason) Transition {
	t := Transition{From: b.state, To: to, At: now, Reason: r}
	b.state = to
	b.gen++
	b.probesAdmitted, b.probesSucceeded = 0, 0
	t.Trips = b.trips
	return t
}

package deadline

import (
	"errors"
	"fmt"
	"time"
)

// Defaults, from the source's Deadline.sub and handle_checkout.
const (
	// DefaultReserve is the time a hop keeps back to assemble its answer,
	// 50 ms (the source's reserve_s = 0.05).
	DefaultReserve = 50 * time.Millisecond
	// DefaultNonCriticalCap is the most a non-critical call may get, 80 ms
	// (the source's min(0.08, deadline.sub())).
	DefaultNonCriticalCap = 80 * time.Millisecond
)

// ErrInvalidConfig is wrapped by every error New returns.
var ErrInvalidConfig = errors.New("deadline: invalid config")

// Class says how much of a request's remaining budget a downstream call may
// take.
type Class uint8

const (
	// Critical calls (pricing on a checkout page) get everything left
	// minus the reserve; if they fail, the request fails.
	Critical Class = iota
	// NonCritical calls (recommendations) get at most NonCriticalCap; if
	// they fail, the answer degrades.
	NonCritical
)

// String returns "critical" or "non_critical".
func (c Class) String() string {
	switch c {
	case Critical:
		return "critical"
	case NonCritical:
		return "non_critical"
	}
	return fmt.Sprintf("Class(%d)", uint8(c))
}

// Config configures a Policy. Start from DefaultConfig.
type Config struct {
	// Reserve is kept back from every slice so that the hop can still
	// return a (possibly degraded) answer. Default 50 ms; must be >= 0.
	Reserve time.Duration
	// NonCriticalCap is the most a NonCritical call may get. Default 80 ms;
	// must be > MinSlice.
	NonCriticalCap time.Duration
	// MinSlice is the smallest slice worth sending a call with: a call whose
	// slice is not above MinSlice is refused (DeadlineExceeded). Default 0
	// (any positive slice); must be >= 0.
	MinSlice time.Duration
}

// DefaultConfig returns Reserve 50 ms, NonCriticalCap 80 ms, MinSlice 0.
func DefaultConfig() Config {
	return Config{Reserve: DefaultReserve, NonCriticalCap: DefaultNonCriticalCap}
}

// Validate reports the first problem with c, wrapped around
// ErrInvalidConfig, or nil.
func (c Config) Validate() error {
	switch {
	case c.Reserve < 0 || c.MinSlice < 0:
		return fmt.Errorf("%w: negative Reserve %v or MinSlice %v", ErrInvalidConfig, c.Reserve, c.MinSlice)
	case c.NonCriticalCap <= c.MinSlice:
		return fmt.Errorf("%w: NonCriticalCap %v not above MinSlice %v: non-critical calls could never be sent",
			ErrInvalidConfig, c.NonCriticalCap, c.MinSlice)
	}
	return nil
}

// Policy splits a request's remaining budget among its downstream calls. It
// is an immutable value, safe for concurrent use.
type Policy struct {
	cfg Config
}

// New validates cfg and returns a Policy.
func New(cfg Config) (Policy, error) {
	if err := cfg.Validate(); err != nil {
		return Policy{}, fmt.Errorf("deadline.New: %w", err)
	}
	return Policy{cfg: cfg}, nil
}

// Config returns the policy's configuration.
func (p Policy) Config() Config { return p.cfg }

// Slice returns the timeout for one downstream call of class c made at
// instant now under deadline d, and whether the call is worth sending
// (slice > MinSlice):
//
//	Critical     max(0, d.Remaining(now) - Reserve)
//	NonCritical  min(NonCriticalCap, max(0, d.Remaining(now) - Reserve))
//
// With no deadline a Critical call gets Forever (bound it with its
// per-attempt timeout) and a NonCritical one NonCriticalCap. An unknown
// class is treated as NonCritical. When ok is false the caller must not send
// the call and should report policies.DeadlineExceeded.
func (p Policy) Slice(d Deadline, now time.Duration, c Class) (slice time.Duration, ok bool) {
	slice = Forever
	if d.set {
		slice = max(d.Remaining(now)-p.cfg.Reserve, 0)
	}
	if c != Critical {
		slice = min(slice, p.cfg.NonCriticalCap)
	}
	return slice, slice > p.cfg.MinSlice
}

// Propagate returns the deadline to send with a call of class c made at
// instant now under deadline d: After(now, slice), or no deadline for a
// Critical call under no deadline. ok is as for Slice: when false, do not
// send the call.
func (p Policy) Propagate(d Deadline, now time.Duration, c Class) (child Deadline, ok bool) {
	slice, ok := p.Slice(d, now, c)
	if !d.set && c == Critical {
		return Deadline{}, ok
	}
	return After(now, slice), ok
}

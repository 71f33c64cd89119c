package deadline

import (
	"math"
	"time"
)

// Forever is the Remaining time and the Slice of a request with no
// deadline: the largest time.Duration.
const Forever = time.Duration(math.MaxInt64)

// Deadline is the absolute expiry instant of a whole request. The zero
// Deadline means no deadline.
type Deadline struct {
	at  time.Duration
	set bool
}

// At returns the deadline that expires at instant expiry.
func At(expiry time.Duration) Deadline { return Deadline{at: expiry, set: true} }

// After returns the deadline that expires budget after instant now
// (saturating at Forever instead of overflowing). A negative budget counts
// as 0: the deadline has expired at now.
func After(now, budget time.Duration) Deadline {
	// With budget >= 0, now+budget wraps (below now) exactly when it
	// would pass Forever: one comparison where the test of now and the
	// subtraction from Forever took 3 instructions more (once per request).
	at := now + max(budget, 0)
	if at < now {
		at = Forever
	}
	return At(at)
}

// IsSet reports whether d is a deadline (false for the zero Deadline).
func (d Deadline) IsSet() bool { return d.set }

// Expiry returns the expiry instant and true, or 0 and false if d has no
// deadline, like context.Context.Deadline.
func (d Deadline) Expiry() (time.Duration, bool) { return d.at, d.set }

// Instant returns the expiry instant, or 0 if d has no deadline: the
// convention of retry.Policy.Decide's deadline argument. A deadline that
// expires exactly at instant 0 is reported as 1 ns, so that it is not
// mistaken for none; an expiry before the origin is reported as 1 ns too
// (such a deadline has expired for any request at or after the origin).
func (d Deadline) Instant() time.Duration {
	if !d.set {
		return 0
	}
	return max(d.at, 1)
}

// Remaining returns the time left at instant now: max(0, expiry - now), or
// Forever if d has no deadline.
func (d Deadline) Remaining(now time.Duration) time.Duration {
	switch {
	case !d.set:
		return Forever
	case now >= d.at:
		return 0
	case now < 0 && d.at > Forever+now: // d.at - now would overflow
		return Forever
	default:
		return d.at - now
	}
}

// Expired reports whether no time is left at instant now (now >= expiry). A
// request with no deadline never expires.
func (d Deadline) Expired(now time.Duration) bool { return d.set && now >= d.at }

// Earlier returns whichever of d and o expires first; a deadline is earlier
// than none. A hop that has a deadline of its own (a server-side limit)
// applies Earlier to it and the propagated one.
func (d Deadline) Earlier(o Deadline) Deadline {
	switch {
	case !o.set:
		return d
	case !d.set || o.at < d.at:
		return o
	default:
		return d
	}
}

// WithTimeout returns Earlier(After(now, timeout)): d, shortened if needed so
// that it expires no later than timeout after now, like
// context.WithTimeout on a parent context.
func (d Deadline) WithTimeout(now, timeout time.Duration) Deadline {
	return d.Earlier(After(now, timeout))
}

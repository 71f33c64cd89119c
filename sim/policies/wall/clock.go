package wall

import (
	"context"
	"time"
)

// Clock is the source of time of a Caller: instants, as time.Duration values
// since a fixed origin (the convention of package policies), and the timers
// the call path needs (backoff waits and per-attempt deadlines).
//
// MonotonicClock is the production clock; ManualClock is a clock for tests
// whose time moves only when the test says so. A Clock must be safe for
// concurrent use.
type Clock interface {
	// Now returns the current instant. Successive calls never decrease.
	Now() time.Duration
	// Time returns the time.Time of instant at, for context deadlines.
	Time(at time.Duration) time.Time
	// Instant returns the instant of t (a context deadline, an HTTP date):
	// the inverse of Time.
	Instant(t time.Time) time.Duration
	// AfterFunc calls f, in its own goroutine or in the goroutine that
	// advances the clock, once d has elapsed, unless stop is called first.
	// stop reports whether it prevented the call, like time.Timer.Stop.
	AfterFunc(d time.Duration, f func()) (stop func() bool)
	// WithDeadline returns a copy of parent that is done at instant at
	// (or earlier, if parent is), and whose Err is then
	// context.DeadlineExceeded, like context.WithDeadline.
	WithDeadline(parent context.Context, at time.Duration) (context.Context, context.CancelFunc)
}

// MonotonicClock is the production Clock: Now is time.Since(origin), read on
// Go's monotonic clock, so that instants never go backwards when the wall
// clock is stepped. Its timers are time.AfterFunc and context.WithDeadline.
type MonotonicClock struct {
	origin time.Time
}

// NewMonotonicClock returns a MonotonicClock whose origin is the moment of
// the call.
func NewMonotonicClock() *MonotonicClock {
	return &MonotonicClock{origin: time.Now()}
}

// Origin returns the instant 0 of the clock, with its monotonic reading.
func (c *MonotonicClock) Origin() time.Time { return c.origin }

// Now returns time.Since(origin).
func (c *MonotonicClock) Now() time.Duration { return time.Since(c.origin) }

// Time returns origin + at.
func (c *MonotonicClock) Time(at time.Duration) time.Time { return c.origin.Add(at) }

// Instant returns t - origin (monotonic if t has a monotonic reading, as the
// deadlines of context.WithTimeout do).
func (c *MonotonicClock) Instant(t time.Time) time.Duration { return t.Sub(c.origin) }

// AfterFunc is time.AfterFunc.
func (c *MonotonicClock) AfterFunc(d time.Duration, f func()) func() bool {
	return time.AfterFunc(d, f).Stop
}

// WithDeadline is context.WithDeadline at origin + at.
func (c *MonotonicClock) WithDeadline(parent context.Context, at time.Duration) (context.Context, context.CancelFunc) {
	return context.WithDeadline(parent, c.origin.Add(at))
}

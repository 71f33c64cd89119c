package engine

import (
	"strconv"
	"time"
)

// Time is a virtual instant: nanoseconds since the start of the run.
type Time int64

// MaxTime is the largest representable instant (about 292 years).
const MaxTime Time = 1<<63 - 1

// Add returns t+d, saturating at MaxTime.
func (t Time) Add(d time.Duration) Time {
	s := t + Time(d)
	if d > 0 && s < t {
		return MaxTime
	}
	return s
}

// Sub returns the duration t-u.
func (t Time) Sub(u Time) time.Duration { return time.Duration(t - u) }

// Seconds returns t in seconds.
func (t Time) Seconds() float64 { return float64(t) / 1e9 }

// Duration returns t as the duration since the start of the run; policies
// take instants in this form (see package policies).
func (t Time) Duration() time.Duration { return time.Duration(t) }

// String formats t as seconds, e.g. "12.5s".
func (t Time) String() string {
	return strconv.FormatFloat(t.Seconds(), 'f', -1, 64) + "s"
}

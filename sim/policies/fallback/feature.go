package fallback

import (
	"fmt"
	"time"
)

// Cached describes the cached value available to a request, as the
// caller's cache reports it.
type Cached struct {
	// Present reports whether a cached value exists.
	Present bool
	// StoredAt is the instant the value was stored (fetched fresh).
	StoredAt time.Duration
}

// Attempt is one request's walk down the hierarchy. Its zero value is not
// meaningful; get one from Feature.Begin.
type Attempt struct {
	level     Level
	staleOK   bool
	staleness time.Duration
	generic   bool
	empty     bool
}

// Level returns the level to try now.
func (a Attempt) Level() Level { return a.level }

// Staleness returns how long the cached value has been stale (age -
// MaxAge, at least 0) when Level is Stale.
func (a Attempt) Staleness() time.Duration { return a.staleness }

// available reports whether level l can be tried.
func (a *Attempt) available(l Level) bool {
	switch l {
	case Stale:
		return a.staleOK
	case Generic:
		return a.generic
	case Empty:
		return a.empty
	}
	return true
}

// Fail records that the current level failed and moves to the next
// available one, which it returns. SystemError is the last level; failing
// it stays there.
func (a *Attempt) Fail() Level {
	for l := a.level + 1; l < NumLevels; l++ {
		if a.available(l) {
			a.level = l
			return l
		}
	}
	a.level = SystemError
	return SystemError
}

// KillChange is the state of a feature's kill switch after Kill or Revive.
type KillChange struct {
	// At is the instant of the change.
	At time.Duration
	// Killed reports whether the feature is off.
	Killed bool
	// Reason is the operator's reason for the change.
	Reason string
}

// Stats counts the answers a Feature served, per level.
type Stats struct {
	// Served[l] counts answers at level l.
	Served [NumLevels]uint64
}

// Degraded returns the number of degraded answers (Stale, Generic, Empty).
func (s Stats) Degraded() uint64 { return s.Served[Stale] + s.Served[Generic] + s.Served[Empty] }

// Failed returns the number of error answers (FeatureError, SystemError).
func (s Stats) Failed() uint64 { return s.Served[FeatureError] + s.Served[SystemError] }

// Feature is one feature's degradation policy: its hierarchy, kill switch,
// counters and fallback tracker. The zero value is not usable; call New.
type Feature struct {
	cfg     Config
	kill    KillChange
	stats   Stats
	tracker Tracker
}

// New returns a Feature, or an error if cfg is invalid.
func New(cfg Config) (*Feature, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("fallback.New: %w", err)
	}
	f := &Feature{cfg: cfg}
	f.tracker.cfg = cfg.trackerConfig()
	return f, nil
}

// Begin starts a request at now. cached describes the cached value the
// Stale level could use. The Attempt starts at Fresh, or, when the feature
// is killed, at the first available level from KilledLevel on.
func (f *Feature) Begin(now time.Duration, cached Cached) Attempt {
	a := Attempt{level: Fresh, generic: f.cfg.HasGeneric, empty: f.cfg.HasEmpty}
	if cached.Present && f.cfg.MaxStale >= 0 {
		age := now - cached.StoredAt
		stale := max(age-f.cfg.MaxAge, 0)
		if age >= 0 && stale <= f.cfg.MaxStale {
			a.staleOK, a.staleness = true, stale
		}
	}
	if f.kill.Killed {
		a.level = f.cfg.KilledLevel
		if !a.available(a.level) {
			a.Fail()
		}
	}
	return a
}

// Serve records that the request was answered at a.Level() at now: it
// counts the level and feeds the tracker, and returns the alert state.
func (f *Feature) Serve(now time.Duration, a Attempt) AlertChange {
	f.stats.Served[a.level]++
	return f.tracker.Record(now, a.level)
}

// Check lets the tracker close the windows that ended by now (call it at
// NextCheckAt when traffic stops).
func (f *Feature) Check(now time.Duration) AlertChange { return f.tracker.Check(now) }

// NextCheckAt returns when the tracker's current window ends.
func (f *Feature) NextCheckAt() time.Duration { return f.tracker.NextCheckAt() }

// Alerting reports whether the feature has been on fallback too long, and
// since when.
func (f *Feature) Alerting() (bool, time.Duration) { return f.tracker.Alerting() }

// Kill turns the feature off at now, for the given reason.
func (f *Feature) Kill(now time.Duration, reason string) KillChange {
	f.kill = KillChange{At: now, Killed: true, Reason: reason}
	return f.kill
}

// Revive turns the feature back on at now.
func (f *Feature) Revive(now time.Duration, reason string) KillChange {
	f.kill = KillChange{At: now, Killed: false, Reason: reason}
	return f.kill
}

// KillSwitch returns the kill switch's last change (the zero value if it
// was never used).
func (f *Feature) KillSwitch() KillChange { return f.kill }

// Stats returns the per-level counters.
func (f *Feature) Stats() Stats { return f.stats }

package fallback

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// Config configures a Feature.
type Config struct {
	// MaxAge is the freshness lifetime of a cached value (Cache-Control
	// max-age): a cached value's staleness is its age minus MaxAge.
	// Default 600 s; at least 0.
	MaxAge time.Duration
	// MaxStale is the longest staleness at which a cached value may still
	// be served on error (RFC 5861 stale-if-error). Default 1200 s; 0
	// serves only values that are not yet stale; negative disables the
	// Stale level.
	MaxStale time.Duration
	// HasGeneric says whether the feature has a generic answer. Default
	// true.
	HasGeneric bool
	// HasEmpty says whether the feature may be shown as an honestly marked
	// empty block. Default true.
	HasEmpty bool
	// KilledLevel is the level a killed feature starts at; Stale or worse.
	// Default Empty.
	KilledLevel Level
	// AlertAfter is how long consecutive degraded windows must last before
	// the tracker raises its alert. Default 5 min; must be positive.
	AlertAfter time.Duration
	// Window is the tracker's window length. Default 1 min; must be
	// positive and at most AlertAfter.
	Window time.Duration
	// DegradedRatio is the share of non-Fresh answers from which a window
	// counts as degraded; in (0, 1]. Default 0.5.
	DegradedRatio float64
}

// DefaultConfig returns RFC 5861's example lifetimes (max-age 600 s,
// stale-if-error 1200 s), every fallback level available, Empty for a
// killed feature, and an alert after 5 min of degraded 1-min windows
// (half or more of the answers not fresh).
func DefaultConfig() Config {
	return Config{
		MaxAge:        600 * time.Second,
		MaxStale:      1200 * time.Second,
		HasGeneric:    true,
		HasEmpty:      true,
		KilledLevel:   Empty,
		AlertAfter:    5 * time.Minute,
		Window:        time.Minute,
		DegradedRatio: 0.5,
	}
}

// ErrInvalidConfig is wrapped by every error a constructor returns for a
// bad configuration; the message names the field.
var ErrInvalidConfig = errors.New("fallback: invalid config")

// Validate reports the first invalid field, wrapping ErrInvalidConfig, or
// nil.
func (c Config) Validate() error {
	if c.MaxAge < 0 {
		return fmt.Errorf("%w: MaxAge %v: must not be negative", ErrInvalidConfig, c.MaxAge)
	}
	if c.KilledLevel < Stale || c.KilledLevel >= NumLevels {
		return fmt.Errorf("%w: KilledLevel %v: must be Stale or worse", ErrInvalidConfig, c.KilledLevel)
	}
	return c.trackerConfig().Validate()
}

func (c Config) trackerConfig() TrackerConfig {
	return TrackerConfig{AlertAfter: c.AlertAfter, Window: c.Window, DegradedRatio: c.DegradedRatio}
}

// TrackerConfig configures a Tracker; the fields mean what they mean in
// Config.
type TrackerConfig struct {
	// AlertAfter: default 5 min; must be positive.
	AlertAfter time.Duration
	// Window: default 1 min; must be positive and at most AlertAfter.
	Window time.Duration
	// DegradedRatio: default 0.5; in (0, 1].
	DegradedRatio float64
}

// DefaultTrackerConfig returns AlertAfter 5 min, Window 1 min,
// DegradedRatio 0.5.
func DefaultTrackerConfig() TrackerConfig { return DefaultConfig().trackerConfig() }

// Validate reports the first invalid field, wrapping ErrInvalidConfig, or
// nil.
func (c TrackerConfig) Validate() error {
	if c.AlertAfter <= 0 {
		return fmt.Errorf("%w: AlertAfter %v: must be positive", ErrInvalidConfig, c.AlertAfter)
	}
	if c.Window <= 0 || c.Window > c.AlertAfter {
		return fmt.Errorf("%w: Window %v: must be in (0, AlertAfter %v]", ErrInvalidConfig, c.Window, c.AlertAfter)
	}
	if !(c.DegradedRatio > 0 && c.DegradedRatio <= 1) || math.IsNaN(c.DegradedRatio) {
		return fmt.Errorf("%w: DegradedRatio %v: must be in (0, 1]", ErrInvalidConfig, c.DegradedRatio)
	}
	return nil
}

package fallback

import (
	"fmt"
	"time"
)

// AlertChange reports the tracker's alert state after a Record or Check.
type AlertChange struct {
	// At is the instant of the Record or Check.
	At time.Duration
	// From and To are the alert state before and after.
	From, To bool
	// DegradedSince is the start of the current run of degraded windows;
	// meaningful while To is true.
	DegradedSince time.Duration
}

// Changed reports whether the alert was raised or cleared.
func (c AlertChange) Changed() bool { return c.From != c.To }

// Tracker raises an alert when a feature has lived on fallback for too
// long (see the package documentation). The zero value is not usable; call
// NewTracker.
type Tracker struct {
	cfg TrackerConfig

	started  bool
	winStart time.Duration
	total    uint64 // answers in the current window
	degraded uint64 // non-Fresh answers in the current window

	inRun    bool          // the last closed window with answers was degraded
	runStart time.Duration // start of the first window of the run
	alert    bool
}

// NewTracker returns a Tracker, or an error if cfg is invalid.
func NewTracker(cfg TrackerConfig) (*Tracker, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("fallback.NewTracker: %w", err)
	}
	return &Tracker{cfg: cfg}, nil
}

// Record counts an answer at level l given at now and returns the alert
// state. The first call starts the first window at now.
func (t *Tracker) Record(now time.Duration, l Level) AlertChange {
	from := t.alert
	t.advance(now)
	t.total++
	if l != Fresh {
		t.degraded++
	}
	return AlertChange{At: now, From: from, To: t.alert, DegradedSince: t.runStart}
}

// Check closes the windows that ended by now, without recording an answer,
// and returns the alert state.
func (t *Tracker) Check(now time.Duration) AlertChange {
	from := t.alert
	t.advance(now)
	return AlertChange{At: now, From: from, To: t.alert, DegradedSince: t.runStart}
}

// advance closes every window that ended at or before now.
func (t *Tracker) advance(now time.Duration) {
	if !t.started {
		t.started, t.winStart = true, now
		return
	}
	w := t.cfg.Window
	for now >= t.winStart+w {
		end := t.winStart + w
		if t.total > 0 {
			if float64(t.degraded) >= t.cfg.DegradedRatio*float64(t.total) {
				if !t.inRun {
					t.inRun, t.runStart = true, t.winStart
				}
			} else {
				t.inRun = false
			}
		}
		t.alert = t.inRun && end-t.runStart >= t.cfg.AlertAfter
		t.total, t.degraded = 0, 0
		t.winStart = end
		if t.alert || !t.inRun {
			// Nothing more can change over empty windows: skip them.
			if k := (now - t.winStart) / w; k > 0 {
				t.winStart += k * w
			}
		}
	}
}

// Alerting reports whether the alert is raised, and since when the
// feature has been degraded.
func (t *Tracker) Alerting() (bool, time.Duration) { return t.alert, t.runStart }

// NextCheckAt returns the end of the current window: the instant at which
// a Check may change the alert state. It is meaningless before the first
// Record.
func (t *Tracker) NextCheckAt() time.Duration { return t.winStart + t.cfg.Window }

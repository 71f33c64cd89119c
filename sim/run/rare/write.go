package rare

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/ressim/ressim/internal/version"
	"github.com/ressim/ressim/sim/report"
	"github.com/ressim/ressim/sim/run/runner"
)

const secondsInYear = 365.25 * 24 * 3600

type rareJSON struct {
	Version     string    `json:"ressim_version"`
	Experiment  string    `json:"experiment"`
	Method      string    `json:"method"`
	Probability float64   `json:"probability"`
	Lo          float64   `json:"ci95_lo"`
	Hi          float64   `json:"ci95_hi"`
	Interval    string    `json:"interval"`
	PerYear     float64   `json:"per_year"`
	WithinS     float64   `json:"within_s"`
	WarmupS     float64   `json:"warmup_s"`
	HoldS       float64   `json:"hold_s"`
	Definition  string    `json:"locked_in_definition"`
	Level       *int64    `json:"level,omitempty"`
	Importance  string    `json:"importance,omitempty"`
	WithFault   bool      `json:"with_fault"`
	Seed        uint64    `json:"seed"`
	Runs        int       `json:"runs"`
	LockedIn    *int      `json:"locked_in,omitempty"`
	Events      uint64    `json:"events"`
	Repeats     []float64 `json:"repeats,omitempty"`
	Levels      []Stage   `json:"levels"`
}

// PerYear is the expected lock-ins in a year of windows like this one:
// the probability per window (Within minus the warm-up, the time a
// lock-in can start in) times the windows in a year.
func (r *Result) PerYear() float64 {
	return r.Probability * secondsInYear / (r.Within - r.Warmup).Seconds()
}

// WriteJSON writes rare.json.
func (r *Result) WriteJSON(w io.Writer) error {
	d := rareJSON{Version: version.Version, Experiment: r.Name, Method: r.Method, Probability: r.Probability, Lo: r.Lo, Hi: r.Hi,
		PerYear: r.PerYear(), WithinS: r.Within.Seconds(), WarmupS: r.Warmup.Seconds(), HoldS: r.Hold.Seconds(),
		Definition: fmt.Sprintf("every interval for hold_s in a row after the warm-up answers fewer than %g of the user requests sent in it in full and in time", DeficitShare),
		WithFault:  r.WithFault, Seed: r.Seed, Runs: r.Runs, Events: r.Events, Levels: r.Stages}
	if r.Level > 0 {
		d.Definition = fmt.Sprintf("the attempts busy or queued in the services are at least %d at an interval's end after the warm-up", r.Level)
		lv := r.Level
		d.Level = &lv
	}
	if r.Method == Naive {
		d.Interval = "Wilson score, 95 %"
		k := r.LockedIn
		d.LockedIn = &k
	} else {
		d.Interval = "Student's t on the mean of independent splitting estimates (each the product of its stages' conditional probabilities), 95 %"
		d.Repeats = r.Repeats
		d.Importance = "attempts busy or queued in the services at an interval's end"
	}
	if d.Levels == nil {
		d.Levels = []Stage{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(d); err != nil {
		return fmt.Errorf("%s: %w", JSONFile, err)
	}
	return nil
}

// Summary is one line for the terminal.
func (r *Result) Summary() string {
	return fmt.Sprintf("P(locked in within %v) = %.3g (95 %%: %.3g to %.3g) by %s, %d runs, %s events; %.3g lock-ins a year",
		r.Within, r.Probability, r.Lo, r.Hi, r.Method, r.Runs, runner.FormatCount(float64(r.Events)), r.PerYear())
}

// Figure is rare.png: each stage's running estimate (the product of the
// conditional probabilities so far) against the backlog it reached, for
// every repeat, and the estimate with its interval at the lock-in.
func (r *Result) Figure() report.LogPoints {
	var xs, ys []float64
	top := int64(0)
	for _, s := range r.Stages {
		top = max(top, s.Level)
	}
	lockX := float64(top + 1)
	if r.Level > 0 {
		lockX = float64(r.Level)
	}
	p := 1.0
	for i, s := range r.Stages {
		if i == 0 || s.Repeat != r.Stages[i-1].Repeat {
			p = 1
		}
		p *= s.Conditional
		x := float64(s.Level)
		if s.LockIn {
			x = lockX
		}
		xs, ys = append(xs, x), append(ys, p)
	}
	lock := "the lock-in"
	if r.Level > 0 {
		lock = fmt.Sprintf("backlog %d (locked in)", r.Level)
	}
	l := report.LogPoints{
		Title: fmt.Sprintf("%s: P(locked in within %v) by %s", r.Name, r.Within, r.Method),
		Subtitle: fmt.Sprintf("%.3g (95 %%: %.3g to %.3g), %d runs, %s events, seed %d; the lock-in drawn at x = %g",
			r.Probability, r.Lo, r.Hi, r.Runs, runner.FormatCount(float64(r.Events)), r.Seed, lockX),
		XLabel: "backlog reached (attempts busy or queued at an interval's end)",
		YLabel: "probability of getting there (log scale)",
		MinY:   1e-300,
		Series: []report.LogSeries{
			{Name: "each estimate's stages:\nthe product so far", X: xs, Y: ys, Points: true},
			{Name: "the estimate at " + lock + ",\nwith its 95 % interval (drawn\na little to the right)", X: []float64{lockX + 0.3}, Y: []float64{r.Probability}, Lo: []float64{r.Lo}, Hi: []float64{r.Hi}, Points: true, Big: true},
		},
	}
	return l
}

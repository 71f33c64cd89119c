package rare

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/ressim/ressim/internal/version"
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

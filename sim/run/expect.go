package run

import (
	"fmt"
	"math"

	"github.com/ressim/ressim/sim/analysis"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/headline"
)

// ExpectResult is one checked expectation.
type ExpectResult struct {
	Expect experiment.Expect
	// Value is the metric's mean over the variant's replications (NaN if
	// undefined, which fails the expectation).
	Value float64
	OK    bool
	// Skipped: the variant was not run (ressim run runs the base only).
	Skipped bool
}

// String describes the result in one line.
func (r ExpectResult) String() string {
	e := r.Expect
	bound := ""
	if e.Min != nil {
		bound += fmt.Sprintf(" >= %g", *e.Min)
	}
	if e.Max != nil {
		if bound != "" {
			bound += " and"
		}
		bound += fmt.Sprintf(" <= %g", *e.Max)
	}
	status := "ok"
	switch {
	case r.Skipped:
		status = "skipped (variant not run; use ressim compare)"
	case !r.OK:
		status = "FAILED"
	}
	return fmt.Sprintf("expect %s %s%s: %s (%s) [%s]", e.Variant, e.Metric, bound, FmtNum(r.Value), status, e.Where)
}

// CheckExpectations evaluates the experiment's expectations on the runs'
// headlines, by variant name.
func CheckExpectations(exp *experiment.Experiment, byVariant map[string][]Headline) []ExpectResult {
	var out []ExpectResult
	for _, e := range exp.Expects {
		r := ExpectResult{Expect: e, Value: math.NaN()}
		hs, ok := byVariant[e.Variant]
		if !ok || len(hs) == 0 {
			r.Skipped, r.OK = true, true
			out = append(out, r)
			continue
		}
		if e.Metric == headline.LockedInProbability {
			r.Value = float64(LockedInCount(hs)) / float64(len(hs))
		} else if m := MetricOf(e.Metric); m != nil {
			if s := analysis.Summarize(Finite(m.Values(hs))); s.N > 0 {
				r.Value = s.Mean
			}
		}
		r.OK = !math.IsNaN(r.Value) && (e.Min == nil || r.Value >= *e.Min) && (e.Max == nil || r.Value <= *e.Max)
		out = append(out, r)
	}
	return out
}

package lint

import (
	"sort"

	"github.com/ressim/ressim/sim/experiment"
)

// Severity is how serious a finding is; the values are SARIF's levels.
type Severity string

// The severities, most serious first.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
	Note    Severity = "note"
)

// rank orders severities: higher is more serious.
func (s Severity) rank() int {
	switch s {
	case Error:
		return 3
	case Warning:
		return 2
	case Note:
		return 1
	}
	return 0
}

// AtLeast reports whether s is at least as serious as t.
func (s Severity) AtLeast(t Severity) bool { return s.rank() >= t.rank() }

// Finding is one violated rule at one place.
type Finding struct {
	// Rule is the rule's ID, e.g. "RS001".
	Rule string `json:"rule"`
	// Severity is the rule's severity.
	Severity Severity `json:"severity"`
	// File, Line and Col locate the key at fault (1-based; Col in
	// characters).
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
	// Key is the dotted key path at fault, as in validate's messages.
	Key string `json:"key"`
	// Variant is the variant whose model shows the finding ("base" for the
	// base experiment); Variants, filled by Group, every variant that
	// shows it alike, in the file's order.
	Variant  string   `json:"-"`
	Variants []string `json:"variants"`
	// Message says what is wrong here, with the numbers.
	Message string `json:"message"`
	// Measured, with --simulate and for RS007 only, is the largest
	// amplification the stress scenarios measured at the path's bottom.
	Measured *Measured `json:"measured,omitempty"`

	bottom string // RS007: the bottom service of the worst path
	reason string // Group's: a suppressed finding's reason, while grouping
}

// Path is one call path from a client down to a service that calls no
// one, with the worst-case number of calls its bottom receives per user
// request: the product of the attempts at each call along the way (a
// hedged call's attempts are its copies, hedge.attempts).
type Path struct {
	// Variant is the variant whose model has the path; Variants, filled
	// by Group, every variant that has it alike.
	Variant  string   `json:"-"`
	Variants []string `json:"variants"`
	Hops     []string `json:"hops"`
	Attempts []int    `json:"attempts"`
	// Hedged is, per layer, whether its Attempts are hedged copies rather
	// than retries; nil (omitted) on a path with no hedged layer.
	Hedged []bool `json:"hedged,omitempty"`
	// Amplification is the product of Attempts: the worst case, which a
	// retry budget allows only while its bucket's tokens last.
	Amplification int `json:"amplification"`
	// Steady is, per layer, the attempts per call its retry budget allows
	// in steady state: 1 + ratio, plus the reserve's retries per second
	// over the layer's call rate (a layer without a token budget: its
	// Attempts); SteadyAmplification their product.
	Steady              []float64 `json:"steady_attempts"`
	SteadyAmplification float64   `json:"steady_amplification"`
	// RetryLayers counts the layers that retry without a retry budget
	// (token or concurrency), or hedge without a token budget;
	// BudgetedLayers those that retry or hedge with one. A hedged layer
	// multiplies the load as a retrying one does, and its hedges draw on
	// the same token budget (retry concurrency does not limit hedges).
	RetryLayers    int `json:"retry_layers"`
	BudgetedLayers int `json:"budgeted_layers"`

	rate     float64 // the client's peak rate, requests/s (0: closed loop)
	budgeted []bool  // per layer: its retries (hedges) draw on a budget
	hedged   []bool  // per layer: it hedges
	// Measured, with --simulate, is the largest amplification measured
	// at the path's bottom service.
	Measured *Measured `json:"measured,omitempty"`
}

// Report is the result of linting one experiment file.
type Report struct {
	File     string    `json:"file"`
	Findings []Finding `json:"findings"`
	// Suppressed are findings silenced by a lint-ignore comment, with the
	// comment's reason in Message's place.
	Suppressed []Suppressed `json:"suppressed"`
	Paths      []Path       `json:"paths"`
	// Scenarios are the stress scenarios' results, with --simulate.
	Scenarios []ScenarioResult `json:"scenarios,omitempty"`

	variants []string // the variants checked, in the file's order, for Group
}

// Suppressed is a finding silenced by a reasoned comment.
type Suppressed struct {
	Finding
	Reason string `json:"reason"`
}

// Worst returns the most serious severity among the findings, or "" when
// there are none.
func (r *Report) Worst() Severity {
	var w Severity
	for _, f := range r.Findings {
		if f.Severity.rank() > w.rank() {
			w = f.Severity
		}
	}
	return w
}

// place fills a finding's position from the experiment's key positions.
func place(e *experiment.Experiment, f *Finding) {
	p := e.KeyPos(f.Key)
	f.File, f.Line, f.Col = e.File, p.Line, p.Col
}

// sortFindings orders findings by file, position, then rule, then variant, then
// message, so that output never depends on check order.
func sortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		switch {
		case a.File != b.File:
			return a.File < b.File
		case a.Line != b.Line:
			return a.Line < b.Line
		case a.Col != b.Col:
			return a.Col < b.Col
		case a.Rule != b.Rule:
			return a.Rule < b.Rule
		case a.Variant != b.Variant:
			return a.Variant < b.Variant
		}
		return a.Message < b.Message
	})
}

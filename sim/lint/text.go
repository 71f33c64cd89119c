package lint

import (
	"fmt"
	"io"
)

// WriteText writes the report for people: one line per finding
// (file:line:col: severity ID [variant] message), the call paths with
// their worst-case amplification, and a summary line.
func WriteText(w io.Writer, r *Report) error {
	ew := &errWriter{w: w}
	for _, f := range r.Findings {
		ew.printf("%s:%d:%d: %s %s [%s] %s%s\n", f.File, f.Line, f.Col, f.Severity, f.Rule, variantLabel(f.Variant, f.Variants), f.Message, measuredText(f.Measured))
	}
	for _, s := range r.Suppressed {
		ew.printf("%s:%d:%d: suppressed %s [%s] %s (because %s)\n", s.File, s.Line, s.Col, s.Rule, variantLabel(s.Variant, s.Variants), s.Message, s.Reason)
	}
	if len(r.Paths) > 0 {
		ew.printf("worst-case retry amplification per call path:\n")
	}
	for _, p := range r.Paths {
		ew.printf("  [%s] %s = %s%s\n", variantLabel(p.Variant, p.Variants), pathString(p), pathAmplification(p), measuredText(p.Measured))
	}
	writeScenarios(ew, r.Scenarios)
	counts := map[Severity]int{}
	for _, f := range r.Findings {
		counts[f.Severity]++
	}
	ew.printf("%s: %d finding(s): %d error(s), %d warning(s), %d note(s); %d suppressed\n",
		r.File, len(r.Findings), counts[Error], counts[Warning], counts[Note], len(r.Suppressed))
	return ew.err
}

// errWriter keeps the first write error.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, a ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, a...)
	}
}

// pathAmplification is the path line's amplification: "27x", or with
// retry budgets "27x (1.37x steady)".
func pathAmplification(p Path) string {
	if p.BudgetedLayers == 0 {
		return fmt.Sprintf("%dx", p.Amplification)
	}
	return fmt.Sprintf("%dx (%.2fx steady)", p.Amplification, p.SteadyAmplification)
}

// measuredText is the note after a finding or path measured by --simulate.
func measuredText(m *Measured) string {
	if m == nil {
		return ""
	}
	return fmt.Sprintf("; measured %.2fx at %s under %s (%s)", m.Amplification, m.Service, m.Scenario, m.Verdict)
}

// writeScenarios lists the stress scenarios' verdicts.
func writeScenarios(ew *errWriter, ss []ScenarioResult) {
	if len(ss) == 0 {
		return
	}
	ew.printf("stress scenarios (--simulate; %v runs, fault from %v, experiment's seed):\n", SimDuration, SimFaultStart)
	for _, s := range ss {
		verdict := s.Verdict
		if s.Verdict == "recovered" {
			verdict += " after " + s.RecoveryTime
		}
		ew.printf("  [%s] %s on %s (%s): %s; %.2fx calls at %s per user request during the fault\n",
			s.Variant, s.Scenario, s.Target, s.What, verdict, s.Amplification, s.Target)
	}
}

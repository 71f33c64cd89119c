package alerts

import (
	"fmt"
	"strings"
	"time"
)

// Expect is one assertion on a Report, parsed from text by ParseExpect:
//
//	ALERT fires within D      in every fault: fired, at most D after its start
//	ALERT resolves within D   in every fault: fired and resolved, at most D after its end
//	ALERT silent              never fired, in any fault nor the baseline
//	no false alarms           nothing fired in the run without faults
//
// ALERT is an alert name (any labels) or alertname{labels} as reported; D
// a Go duration (6m, 90s).
//
// The same assertions written as [[expect]] blocks in the experiment file
// (experiment.AlertExpect, converted by ExpectFrom) may also name one
// fault (Fault) or the baseline alone (Baseline).
type Expect struct {
	Text  string
	Alert string
	Kind  string // "fires", "resolves", "silent", "no-false-alarms"
	Limit time.Duration
	// Fault, if set, is the one fault (its label) the expectation is
	// about; otherwise it holds in every fault.
	Fault string
	// Baseline (silent only): only the run without faults counts.
	Baseline bool
}

// ParseExpect parses one expectation.
func ParseExpect(s string) (Expect, error) {
	e := Expect{Text: s}
	f := strings.Fields(s)
	switch {
	case len(f) == 3 && f[0] == "no" && f[1] == "false" && f[2] == "alarms":
		e.Kind = "no-false-alarms"
		return e, nil
	case len(f) == 2 && f[1] == "silent":
		e.Alert, e.Kind = f[0], "silent"
		return e, nil
	case len(f) == 4 && (f[1] == "fires" || f[1] == "resolves") && f[2] == "within":
		d, err := time.ParseDuration(f[3])
		if err != nil || d < 0 {
			return e, fmt.Errorf("expectation %q: bad duration %q", s, f[3])
		}
		e.Alert, e.Kind, e.Limit = f[0], f[1], d
		return e, nil
	}
	return e, fmt.Errorf(`expectation %q: want "ALERT fires within D", "ALERT resolves within D", "ALERT silent" or "no false alarms"`, s)
}

// ExpectResult is an expectation's verdict, with why.
type ExpectResult struct {
	Expect Expect
	OK     bool
	Detail string
}

// String renders the result as ressim's other expectations do.
func (r ExpectResult) String() string {
	v := "ok  "
	if !r.OK {
		v = "FAIL"
	}
	return fmt.Sprintf("expect %s %s: %s", v, r.Expect.Text, r.Detail)
}

// Check judges the expectation on r.
func (e Expect) Check(r *Report) ExpectResult {
	c := &checker{res: ExpectResult{Expect: e, OK: true}}
	switch e.Kind {
	case "no-false-alarms":
		for _, ep := range r.FalseAlarms() {
			c.fail("%s fired at %v without faults", ep.Alert, ep.Firing)
		}
	case "silent":
		e.checkSilent(r, c)
	default:
		e.checkFault(r, c)
	}
	return c.result()
}

// checker gathers an expectation's verdict and notes.
type checker struct {
	res   ExpectResult
	notes []string
}

func (c *checker) fail(format string, a ...any) {
	c.res.OK = false
	c.notes = append(c.notes, fmt.Sprintf(format, a...))
}

func (c *checker) note(format string, a ...any) { c.notes = append(c.notes, fmt.Sprintf(format, a...)) }

func (c *checker) result() ExpectResult {
	if len(c.notes) == 0 {
		c.notes = append(c.notes, "as expected")
	}
	c.res.Detail = strings.Join(c.notes, "; ")
	return c.res
}

// matches reports whether the reported alert (name{labels}) is the
// expectation's: its name, its name with those labels, or any alert for
// "*".
func (e Expect) matches(reported string) bool {
	return e.Alert == "*" || reported == e.Alert || strings.HasPrefix(reported, e.Alert+"{")
}

// faults returns the fault reports the expectation is about.
func (e Expect) faults(r *Report) []FaultReport {
	if e.Fault == "" {
		return r.Faults
	}
	for _, f := range r.Faults {
		if f.Label == e.Fault {
			return []FaultReport{f}
		}
	}
	return nil
}

func (e Expect) checkSilent(r *Report, c *checker) {
	if !e.Baseline {
		for _, f := range e.faults(r) {
			for _, d := range f.Detections {
				if e.matches(d.Alert) && d.Fired {
					c.fail("%s fired %v after %q started", d.Alert, d.FiringAfter, f.Label)
				}
			}
		}
	}
	if e.Fault != "" {
		return
	}
	for _, ep := range r.FalseAlarms() {
		if e.matches(ep.Alert) {
			c.fail("%s fired at %v without faults", ep.Alert, ep.Firing)
		}
	}
}

func (e Expect) checkFault(r *Report, c *checker) {
	fs := e.faults(r)
	if len(fs) == 0 {
		if e.Fault != "" {
			c.fail("no fault labelled %q in the run", e.Fault)
		} else {
			c.fail("the experiment has no fault")
		}
	}
	for _, f := range fs {
		d, ok := r.Find(f.Label, e.Alert)
		switch {
		case !ok || !d.Fired:
			c.fail("did not fire in %q", f.Label)
		case d.FalseAlarm:
			c.fail("%s fires without faults too: a false alarm in %q, not a detection", d.Alert, f.Label)
		case e.Kind == "fires" && (d.FiringAfter < 0 || d.FiringAfter > e.Limit):
			c.fail("fired %v after %q started", d.FiringAfter, f.Label)
		case e.Kind == "fires":
			c.note("fired %v after %q started", d.FiringAfter, f.Label)
		case !d.Resolved || d.ResolvedAfter > e.Limit:
			c.fail("%s in %q", d.String(), f.Label)
		default:
			c.note("resolved %v after %q ended", d.ResolvedAfter, f.Label)
		}
	}
}

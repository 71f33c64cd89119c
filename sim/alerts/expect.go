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
type Expect struct {
	Text  string
	Alert string
	Kind  string // "fires", "resolves", "silent", "no-false-alarms"
	Limit time.Duration
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
	res := ExpectResult{Expect: e, OK: true}
	var notes []string
	fail := func(format string, a ...any) {
		res.OK = false
		notes = append(notes, fmt.Sprintf(format, a...))
	}
	note := func(format string, a ...any) { notes = append(notes, fmt.Sprintf(format, a...)) }
	switch e.Kind {
	case "no-false-alarms":
		for _, ep := range r.FalseAlarms() {
			fail("%s fired at %v without faults", ep.Alert, ep.Firing)
		}
	case "silent":
		for _, f := range r.Faults {
			if d, ok := r.Find(f.Label, e.Alert); ok && d.Fired {
				fail("fired %v after %q started", d.FiringAfter, f.Label)
			}
		}
		for _, ep := range r.FalseAlarms() {
			if ep.Alert == e.Alert || strings.HasPrefix(ep.Alert, e.Alert+"{") {
				fail("fired at %v without faults", ep.Firing)
			}
		}
	default:
		if len(r.Faults) == 0 {
			fail("the experiment has no fault")
		}
		for _, f := range r.Faults {
			d, ok := r.Find(f.Label, e.Alert)
			switch {
			case !ok || !d.Fired:
				fail("did not fire in %q", f.Label)
			case e.Kind == "fires" && (d.FiringAfter < 0 || d.FiringAfter > e.Limit):
				fail("fired %v after %q started", d.FiringAfter, f.Label)
			case e.Kind == "fires":
				note("fired %v after %q started", d.FiringAfter, f.Label)
			case !d.Resolved || d.ResolvedAfter > e.Limit:
				fail("%s in %q", d.String(), f.Label)
			default:
				note("resolved %v after %q ended", d.ResolvedAfter, f.Label)
			}
		}
	}
	if len(notes) == 0 {
		notes = append(notes, "as expected")
	}
	res.Detail = strings.Join(notes, "; ")
	return res
}

package alerts

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ressim/ressim/sim/topology"
)

// Report is what Evaluate found: every alert's episodes in the run and in
// the same run without its faults, and how each fault was detected.
type Report struct {
	Experiment string
	Rules      string
	// EvalInterval is the rule evaluation interval; every time below is a
	// multiple of it. Interval is the input series' resolution.
	EvalInterval, Interval time.Duration
	// Duration is the evaluated span: the run's last whole interval.
	Duration time.Duration
	// RunDuration is the model's own duration. Extended, if not 0, is
	// how much longer the model was simulated (its faults unchanged)
	// because an alert that fired was still active at RunDuration: the
	// horizon within which it could resolve. Duration includes it.
	RunDuration, Extended time.Duration
	// Alerts are the alert names declared in the rules file.
	Alerts []string
	// Episodes in the run with its faults.
	Episodes []Episode
	Faults   []FaultReport
	// Baseline are the episodes in the same run without faults: a fired
	// one is a false alarm. Nil without faults (then Episodes are the
	// baseline).
	Baseline []Episode

	run   *topology.Result // the run with faults, for WritePromtoolTest
	rules string           // the rules file's absolute path
}

// FaultReport is how the alerts reacted to one fault: for each alert
// active within the fault's horizon (its start to the next fault's start or
// the end of the run), its first episode there.
type FaultReport struct {
	Label      string
	Start, End time.Duration
	Detections []Detection
}

// Detection relates an alert's episode to a fault. PendingAfter and
// FiringAfter are measured from the fault's start (negative if the alert
// was already active), ResolvedAfter from its end.
type Detection struct {
	Alert        string
	PendingAfter time.Duration
	// Fired: the episode reached firing; FiringAfter is then the time to
	// detect.
	Fired       bool
	FiringAfter time.Duration
	// Resolved: the alert's last episode in the horizon ended before it;
	// ResolvedAfter is that end minus the fault's end.
	Resolved      bool
	ResolvedAfter time.Duration
	// FalseAlarm: the same alert (name and labels) also fired in the run
	// without faults, so its firing here says nothing about the fault:
	// it is not a detection and FiringAfter is no time to detect.
	FalseAlarm bool
}

// Detected says whether the alert detected the fault: it fired, and it
// does not fire without the fault.
func (d Detection) Detected() bool { return d.Fired && !d.FalseAlarm }

// detect relates episodes to the fault [start, end) with horizon h.
func detect(eps []Episode, label string, start, end, h time.Duration) FaultReport {
	fr := FaultReport{Label: label, Start: start, End: end}
	seen := make(map[string]int) // alert -> index in fr.Detections; lookup only
	for _, e := range eps {
		if e.Pending >= h || (e.Resolved && e.End <= start) {
			continue
		}
		i, ok := seen[e.Alert]
		if !ok {
			d := Detection{Alert: e.Alert, PendingAfter: e.Pending - start}
			fr.Detections = append(fr.Detections, d)
			i = len(fr.Detections) - 1
			seen[e.Alert] = i
		}
		d := &fr.Detections[i]
		if !d.Fired && e.Fired {
			d.Fired, d.FiringAfter = true, e.Firing-start
		}
		d.Resolved = e.Resolved && e.End <= h
		d.ResolvedAfter = e.End - end
	}
	return fr
}

// markFalseAlarms marks the detections of alerts that fired in the
// baseline as false alarms.
func (r *Report) markFalseAlarms() {
	fa := make(map[string]bool) // lookup only
	for _, e := range r.FalseAlarms() {
		fa[e.Alert] = true
	}
	for i := range r.Faults {
		for j := range r.Faults[i].Detections {
			d := &r.Faults[i].Detections[j]
			d.FalseAlarm = d.Fired && fa[d.Alert]
		}
	}
}

// Find returns the detection of alert (an Alert name, or its alertname
// alone to match any labels) in the fault labelled fault, if any.
func (r *Report) Find(fault, alert string) (Detection, bool) {
	for _, f := range r.Faults {
		if f.Label != fault {
			continue
		}
		for _, d := range f.Detections {
			if d.Alert == alert || strings.HasPrefix(d.Alert, alert+"{") {
				return d, true
			}
		}
	}
	return Detection{}, false
}

// FalseAlarms returns the baseline episodes that fired.
func (r *Report) FalseAlarms() []Episode {
	var out []Episode
	for _, e := range r.Baseline {
		if e.Fired {
			out = append(out, e)
		}
	}
	return out
}

// WriteText writes the report for people.
func (r *Report) WriteText(w io.Writer) {
	fmt.Fprintf(w, "%s: rules %s, evaluated every %v over %v of simulated time (series every %v)\n",
		r.Experiment, r.Rules, r.EvalInterval, r.Duration, r.Interval)
	if r.Extended > 0 {
		fmt.Fprintf(w, "run extended by %v past its %v (the same model, no fault after its end) for the alerts still firing there to resolve; --horizon sets how far\n",
			r.Extended, r.RunDuration)
	}
	at := "the end of the run"
	if r.Extended > 0 {
		at = fmt.Sprintf("the horizon (%v after the run's end)", r.Extended)
	}
	for _, f := range r.Faults {
		fmt.Fprintln(w, f.Summary(at))
	}
	for _, f := range r.Faults {
		fmt.Fprintf(w, "fault %q (%v-%v):\n", f.Label, f.Start, f.End)
		if len(f.Detections) == 0 {
			fmt.Fprintln(w, "  no alert pending or firing: NOT DETECTED")
		}
		for _, d := range f.Detections {
			fmt.Fprintf(w, "  %s: %s\n", d.Alert, d.String())
		}
		fired := make(map[string]bool)
		for _, d := range f.Detections {
			fired[strings.SplitN(d.Alert, "{", 2)[0]] = fired[strings.SplitN(d.Alert, "{", 2)[0]] || d.Fired
		}
		for _, a := range r.Alerts {
			if !fired[a] {
				fmt.Fprintf(w, "  %s: did not fire\n", a)
			}
		}
	}
	if r.Baseline == nil {
		return
	}
	fa := r.FalseAlarms()
	fmt.Fprintf(w, "baseline (the same run without faults): %d false alarm(s)\n", len(fa))
	for _, e := range fa {
		fmt.Fprintf(w, "  %s: firing at %v (pending at %v)\n", e.Alert, e.Firing, e.Pending)
	}
}

// Summary is the fault's verdict in one line: which alert detected it
// first and after how long, or that only false alarms fired, or that it
// was missed; then whether the detecting alerts resolved (after how long
// from the fault's end) or were still firing at the horizon.
func (f FaultReport) Summary(horizon string) string {
	s := fmt.Sprintf("fault %q: ", f.Label)
	var first *Detection
	var detected, stillFiring, falseAlarms []string
	lastResolved := time.Duration(0)
	for i := range f.Detections {
		d := &f.Detections[i]
		switch {
		case d.FalseAlarm:
			falseAlarms = append(falseAlarms, d.Alert)
		case d.Fired:
			detected = append(detected, d.Alert)
			if first == nil || d.FiringAfter < first.FiringAfter {
				first = d
			}
			if d.Resolved {
				lastResolved = max(lastResolved, d.ResolvedAfter)
			} else {
				stillFiring = append(stillFiring, d.Alert)
			}
		}
	}
	switch {
	case first != nil:
		s += fmt.Sprintf("detected by %s after %v", first.Alert, first.FiringAfter)
		if n := len(detected); n > 1 {
			s += fmt.Sprintf(" (first of %d alerts)", n)
		}
		if len(stillFiring) == 0 {
			s += fmt.Sprintf("; resolved %s", rel(lastResolved, "its end"))
		} else {
			s += fmt.Sprintf("; %s still firing at %s", strings.Join(stillFiring, ", "), horizon)
		}
	case len(falseAlarms) > 0:
		s += "MISSED: only false alarms fired"
	default:
		s += "MISSED: no alert fired"
	}
	if len(falseAlarms) > 0 {
		s += fmt.Sprintf("; false alarm (fires without faults too): %s", strings.Join(falseAlarms, ", "))
	}
	return s
}

// String says when the alert went pending, fired and resolved.
func (d Detection) String() string {
	s := fmt.Sprintf("pending %s", rel(d.PendingAfter, "the fault's start"))
	if d.FalseAlarm {
		s += fmt.Sprintf(", firing %s: FALSE ALARM, it fires without the fault too, not a detection", rel(d.FiringAfter, "the fault's start"))
	} else if d.Fired {
		s += fmt.Sprintf(", firing %s (time to detect %v)", rel(d.FiringAfter, "the fault's start"), d.FiringAfter)
	} else {
		s += ", never fired"
	}
	switch {
	case d.Resolved:
		s += fmt.Sprintf(", resolved %s", rel(d.ResolvedAfter, "the fault's end"))
	case d.Fired:
		s += ", STILL FIRING at the horizon"
	}
	return s
}

func rel(d time.Duration, ref string) string {
	if d < 0 {
		return fmt.Sprintf("%v before %s", -d, ref)
	}
	return fmt.Sprintf("%v after %s", d, ref)
}

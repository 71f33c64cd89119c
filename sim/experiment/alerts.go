package experiment

import (
	"fmt"
	"path"
	"strings"
	"time"
)

// Alerts is the [alerts] table: the Prometheus rules file that ressim
// alerts evaluates on this experiment when no --rules is given, and the
// evaluation interval. The loader does not open the file (it follows no
// path named in an experiment); ressim alerts does, relative to the
// experiment file's directory.
type Alerts struct {
	// Rules is the rules file, a relative slash-separated path below the
	// experiment file's directory: not absolute, no "." or ".."
	// element, no backslash.
	Rules string
	// EvalInterval is the rule evaluation interval; 0 means ressim
	// alerts' default (15 s).
	EvalInterval time.Duration
}

// AlertExpect is an [[expect]] block with an alert key: an assertion on
// when an alert of the [alerts] rules fires in the simulated incident,
// checked by ressim alerts (which exits 3 when one fails). Exactly one of
// FiresWithin, ResolvesWithin and NeverFires is set.
type AlertExpect struct {
	// Alert is an alert name of the rules file (any labels), or
	// alertname{labels} as ressim alerts reports it; "*" (only with
	// NeverFires) is any alert.
	Alert string
	// Fault is a [[fault]]'s label; "" means every fault.
	Fault string
	// Baseline (only with NeverFires, without Fault): the assertion is on
	// the run without faults only. NeverFires without Fault and Baseline
	// covers the run and the baseline.
	Baseline bool
	// Variant is the variant whose run it is checked on ("base", the
	// default, or a variant's name: ressim alerts --variant).
	Variant string
	// FiresWithin: the alert fired at most this long after the fault's
	// start. ResolvesWithin: it fired, and resolved at most this long
	// after the fault's end. NeverFires: it never fired.
	FiresWithin, ResolvesWithin time.Duration
	NeverFires                  bool
	// Where is the position of the block's alert key, for messages.
	Where Pos
	// Key is the alert key's path, expect[i].alert.
	Key string
}

// alertExpectKeys are the keys of an alert expectation.
var alertExpectKeys = []string{"alert", "fault", "baseline", "variant", "fires_within", "resolves_within", "never_fires"}

// alerts reads the [alerts] table.
func (r *reader) alerts(root *table) *Alerts {
	t, ok := root.sub("alerts", false)
	if !ok {
		return nil
	}
	a := &Alerts{}
	if s, ok := t.str("rules", true); ok {
		if msg := badRulesPath(s); msg != "" {
			r.errorf(t.key("rules"), "%s", msg)
		}
		a.Rules = s
	}
	a.EvalInterval, _ = t.duration("eval_interval", false, time.Second)
	t.done("rules", "eval_interval")
	return a
}

// badRulesPath says why p cannot name the rules file, or "".
func badRulesPath(p string) string { return badPath("rules", p) }

// badPath says why p, the value of key, cannot name a file beside the
// experiment file, or "": it must be a relative slash-separated path
// below the file's folder.
func badPath(key, p string) string {
	switch {
	case p == "":
		return key + " must name a file"
	case strings.ContainsRune(p, '\\') || strings.ContainsRune(p, 0):
		return fmt.Sprintf("%s %q: use / between folders (no backslash or NUL)", key, p)
	case path.IsAbs(p):
		return fmt.Sprintf("%s %q: must be relative to the experiment file's folder, not absolute", key, p)
	}
	for _, e := range strings.Split(p, "/") {
		if e == ".." || e == "." || e == "" {
			return fmt.Sprintf("%s %q: must be a plain path below the experiment file's folder (no \"..\", \".\" or empty element)", key, p)
		}
	}
	return ""
}

// alertExpect reads an [[expect]] block holding an alert key.
func (r *reader) alertExpect(t *table, e *Experiment) AlertExpect {
	x := AlertExpect{Variant: "base", Key: displayPath(t.key("alert")), Where: r.pos.lookup(t.key("alert"))}
	x.Alert, _ = t.str("alert", true)
	if x.Alert == "" && t.has("alert") {
		r.errorf(t.key("alert"), "alert must name an alert of the rules file")
	}
	if v, ok := t.str("variant", false); ok {
		if _, known := e.overrides[v]; !known && v != "base" {
			r.errorf(t.key("variant"), "no variant named %q", v)
		}
		x.Variant = v
	}
	if f, ok := t.str("fault", false); ok {
		x.Fault = f
		if !hasFaultLabel(e, f) {
			r.errorf(t.key("fault"), "no [[fault]] labelled %q; labels: %s", f, strings.Join(faultLabels(e), ", "))
		}
	}
	x.Baseline, _ = t.boolean("baseline", false)
	x.FiresWithin, _ = t.duration("fires_within", false, time.Nanosecond)
	x.ResolvesWithin, _ = t.duration("resolves_within", false, time.Nanosecond)
	x.NeverFires, _ = t.boolean("never_fires", false)
	t.anyKeys = []string{"metric", "min", "max"} // a metric expectation's
	t.done(alertExpectKeys...)
	r.alertExpectConsistent(t, x, e)
	return x
}

// alertExpectConsistent reports an alert expectation that says nothing,
// says two things, or could never pass.
func (r *reader) alertExpectConsistent(t *table, x AlertExpect, e *Experiment) {
	n := 0
	for _, k := range []string{"fires_within", "resolves_within", "never_fires"} {
		if t.has(k) {
			n++
		}
	}
	switch {
	case n != 1:
		r.errorf(t.path, "an alert expectation needs exactly one of fires_within, resolves_within, never_fires")
	case t.has("never_fires") && !x.NeverFires:
		r.errorf(t.key("never_fires"), "never_fires = false asserts nothing: remove it, or say fires_within")
	case x.Baseline && !x.NeverFires:
		r.errorf(t.key("baseline"), "baseline (the run without faults) goes only with never_fires: nothing fires there on purpose")
	case x.Baseline && x.Fault != "":
		r.errorf(t.key("baseline"), "baseline and fault exclude each other: the baseline has no fault")
	case x.Alert == "*" && !x.NeverFires:
		r.errorf(t.key("alert"), `alert "*" (any alert) goes only with never_fires`)
	case !x.NeverFires && !variantHasFault(e, x.Variant):
		r.errorf(t.path, "fires_within and resolves_within are measured from a [[fault]], and %s has none: the expectation could never pass", variantLabel(x.Variant))
	}
	for _, kd := range []struct {
		k string
		d time.Duration
	}{{"fires_within", x.FiresWithin}, {"resolves_within", x.ResolvesWithin}} {
		if k, d := kd.k, kd.d; d > e.Model.Duration && e.Model.Duration > 0 {
			r.errorf(t.key(k), "%v is longer than the experiment's duration %v: it could not be told from never", d, e.Model.Duration)
		}
	}
}

func hasFaultLabel(e *Experiment, label string) bool {
	for _, f := range e.Model.Faults {
		if f.ReportLabel() == label {
			return true
		}
	}
	return false
}

func faultLabels(e *Experiment) []string {
	var out []string
	for _, f := range e.Model.Faults {
		out = append(out, fmt.Sprintf("%q", f.ReportLabel()))
	}
	if len(out) == 0 {
		return []string{"(none)"}
	}
	return out
}

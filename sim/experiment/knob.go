package experiment

import (
	"math"
)

// MaxKnobs bounds the number of [[knob]] blocks.
const MaxKnobs = 16

// KnobTypes are the kinds of [[knob]]: a whole number or a number in
// [min, max], one of a list of values, or a setting switched on.
var KnobTypes = []string{"integer", "number", "choice", "toggle"}

// Knob is one [[knob]] block: a control the playground shows for one
// setting of the experiment, the parameter its story is about. A knob
// changes the setting at Path (a variant override path, docs/compare.md)
// exactly as a variant's set does; the file as written is the knob's
// starting position. Knobs change nothing in ressim run, compare or sweep.
type Knob struct {
	// Name identifies the knob in shared links: letters, digits, '-', '_'.
	Name string `json:"name"`
	// Label is the control's label in the page.
	Label string `json:"label"`
	// Path is the setting the knob sets, e.g. "client.users.retry.attempts".
	Path string `json:"path"`
	// Type is one of KnobTypes.
	Type string `json:"type"`
	// Min, Max and Step bound an "integer" or "number" knob (Step 0:
	// 1 for integers, (Max-Min)/100 for numbers).
	Min  float64 `json:"min,omitempty"`
	Max  float64 `json:"max,omitempty"`
	Step float64 `json:"step,omitempty"`
	// Values are a "choice" knob's values (TOML values, as written).
	Values []any `json:"values,omitempty"`
	// On is what a "toggle" knob sets when on; off leaves the file's value.
	On any `json:"on,omitempty"`
	// Default is the value at Path in the file (nil when not set).
	Default any `json:"default"`
}

// knobs reads the [[knob]] blocks. Every value a knob can set (min and
// max, each choice, on) is applied to the base document and read again
// by the strict reader, so a knob cannot offer an invalid experiment.
func (r *reader) knobs(root *table, e *Experiment) []Knob {
	tables := root.tables("knob")
	if len(tables) > MaxKnobs {
		r.errorf("knob", "at most %d knobs, got %d", MaxKnobs, len(tables))
		return nil
	}
	var out []Knob
	seen := map[string]bool{}
	for _, t := range tables {
		k, ok := r.knob(t, seen)
		if ok {
			ok = r.knobValues(t, e, &k)
		}
		if ok {
			out = append(out, k)
		}
	}
	return out
}

// knob reads one block's keys.
func (r *reader) knob(t *table, seen map[string]bool) (Knob, bool) {
	before := len(r.errs)
	name, ok := r.name(t, "knob", seen)
	k := Knob{Name: name}
	k.Label, _ = t.str("label", true)
	k.Path, _ = t.str("path", true)
	if i, has := t.oneOf("type", KnobTypes); has {
		k.Type = KnobTypes[i]
	} else if !t.has("type") {
		r.errorf(t.path, "missing required key \"type\" (one of integer, number, choice, toggle)")
	}
	numeric := k.Type == "integer" || k.Type == "number"
	if numeric {
		k.Min, _ = t.number("min", true, -math.MaxFloat64, math.MaxFloat64, false, "the knob's lowest value")
		k.Max, _ = t.number("max", true, -math.MaxFloat64, math.MaxFloat64, false, "the knob's highest value")
		k.Step, _ = t.number("step", false, 0, math.MaxFloat64, true, "the knob's increment")
		if k.Max <= k.Min {
			r.errorf(t.key("max"), "must be above min (%g), got %g", k.Min, k.Max)
		}
		if k.Type == "integer" && (k.Min != math.Trunc(k.Min) || k.Max != math.Trunc(k.Max)) {
			r.errorf(t.path, "an integer knob needs whole min and max")
		}
	}
	if k.Type == "choice" {
		if v, has := t.get("values"); has {
			a, isList := v.([]any)
			if !isList || len(a) < 2 {
				r.errorf(t.key("values"), "expected a list of at least two values")
			}
			k.Values = a
		} else {
			r.errorf(t.path, "missing required key \"values\" (a choice knob's values)")
		}
	}
	if k.Type == "toggle" {
		var has bool
		if k.On, has = t.get("on"); !has {
			r.errorf(t.path, "missing required key \"on\" (what the toggle sets)")
		}
	}
	r.knobKeys(t, k.Type)
	return k, ok && len(r.errs) == before
}

// knobKeys rejects the keys that do not belong to the knob's type.
func (r *reader) knobKeys(t *table, typ string) {
	known := []string{"name", "label", "path", "type"}
	switch typ {
	case "integer", "number":
		known = append(known, "min", "max", "step")
	case "choice":
		known = append(known, "values")
	case "toggle":
		known = append(known, "on")
	}
	t.done(known...)
}

// knobValues checks every value k can set, and records the file's own.
func (r *reader) knobValues(t *table, e *Experiment, k *Knob) bool {
	if e.doc == nil {
		return false
	}
	m, last, err := resolve(deepCopy(e.doc).(map[string]any), k.Path)
	if err != nil {
		r.errorf(t.key("path"), "%v", err)
		return false
	}
	k.Default = m[last]
	var try []any
	switch k.Type {
	case "integer":
		try = []any{int64(k.Min), int64(k.Max)}
	case "number":
		try = []any{k.Min, k.Max}
	case "choice":
		try = k.Values
	case "toggle":
		try = []any{k.On}
	}
	for _, v := range try {
		if _, err := e.With(map[string]any{k.Path: v}); err != nil {
			r.errorf(t.path, "knob %q: value %v: %v", k.Name, v, err)
			return false
		}
	}
	return true
}

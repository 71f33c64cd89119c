package experiment

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/ressim/ressim/sim/headline"
	"github.com/ressim/ressim/sim/topology"
)

// Sweep is a parameter grid over one or two settings of the base
// experiment: each cell is the base with the axes' values set, run
// Replications times.
type Sweep struct {
	// X and Y are the axes; Y is nil for a one-axis sweep.
	X, Y *Axis
	// Metric is what the phase diagram shows: the locked-in probability
	// (default) or another headline metric.
	Metric headline.Key
	// Variants names the variants swept (each cell is run for each); empty
	// means the base only.
	Variants []string
}

// Axis is one swept setting.
type Axis struct {
	// Path addresses the setting, as in a variant's set.
	Path string
	// Label names the axis in plots; default the path.
	Label string
	// Values are the settings taken, as TOML values; Numbers are their
	// numeric values for plotting (durations in seconds).
	Values  []any
	Numbers []float64
}

// SweepMetrics are the names of the metrics a sweep can map: every
// headline metric, in the contract's order (sim/headline), which is the
// order the loader's messages list them in.
var SweepMetrics = headline.Names(headline.Keys())

// MaxSweepChecks bounds the combinations a sweep may have, cells times
// swept variants (10,000, e.g. a 100 x 100 grid of the base alone): the
// loader builds the model of each, as ressim sweep will, to check it.
const MaxSweepChecks = 10000

// sweep reads the [sweep] table. check says the base and the variants are
// valid, so that the model of every cell of every swept variant can be
// built and checked.
func (r *reader) sweep(root *table, e *Experiment, check bool) *Sweep {
	t, ok := root.sub("sweep", true)
	if !ok {
		return nil
	}
	s := &Sweep{Metric: headline.LockedInProbability}
	if i, mok := t.oneOf("metric", SweepMetrics); mok {
		s.Metric, _ = headline.Lookup(SweepMetrics[i])
	}
	s.X = r.axis(t, "x", true)
	s.Y = r.axis(t, "y", false)
	if s.X != nil && s.Y != nil && s.X.Path != "" && s.X.Path == s.Y.Path {
		r.errorf(join(t.key("y"), "path"), "both axes set %s; the y values would overwrite the x values", s.Y.Path)
		check = false
	}
	if v, vok := t.strings("variants"); vok {
		s.Variants = v
		for i, name := range v {
			if _, known := e.overrides[name]; !known && name != "base" {
				r.errorf(join(t.key("variants"), fmt.Sprint(i)), "no variant named %q", name)
				check = false
			}
			if slices.Contains(v[:i], name) {
				// A duplicate would run every cell of that variant twice
				// and draw one phase diagram over the other.
				r.errorf(join(t.key("variants"), fmt.Sprint(i)), "variant %q is listed twice", name)
				check = false
			}
		}
	}
	t.done("x", "y", "metric", "variants")
	if check && s.Metric.Def().AfterFault {
		for _, v := range append([]string{"base"}, s.Variants...) {
			if !variantHasFault(e, v) {
				r.errorf(t.key("metric"), "%s is judged after a [[fault]], and %s has none (the default metric is %s)", s.Metric, variantLabel(v), headline.LockedInProbability)
				break
			}
		}
	}
	if check && len(r.errs) == 0 {
		r.checkCells(t, s, e)
	}
	return s
}

func (r *reader) axis(t *table, k string, required bool) *Axis {
	at, ok := t.sub(k, required)
	if !ok {
		return nil
	}
	a := &Axis{}
	a.Path, _ = at.str("path", true)
	if why := runSettingWhy(a.Path); why != "" {
		r.errorf(at.key("path"), "%s", why)
	}
	a.Label, _ = at.str("label", false)
	if a.Label == "" {
		a.Label = a.Path
	}
	raw, has := at.get("values")
	vals, isArr := raw.([]any)
	switch {
	case !has:
		r.errorf(at.path, "missing required key \"values\" (an array of the setting's values)")
	case !isArr || len(vals) == 0 || len(vals) > 100:
		r.errorf(at.key("values"), "expected an array of 1 to 100 values")
	default:
		a.Values = vals
		for i, v := range vals {
			x, err := numeric(v)
			if err != nil {
				r.errorf(join(at.key("values"), fmt.Sprint(i)), "%v", err)
				continue
			}
			a.Numbers = append(a.Numbers, x)
		}
	}
	at.done("path", "label", "values")
	return a
}

// numeric turns a sweep value into a number for plotting: numbers as they
// are, durations in seconds, booleans as 0 and 1.
func numeric(v any) (float64, error) {
	switch x := v.(type) {
	case int64:
		return float64(x), nil
	case float64:
		return x, nil
	case bool:
		if x {
			return 1, nil
		}
		return 0, nil
	case string:
		d, err := parseDuration(x)
		if err != nil {
			return 0, fmt.Errorf("a sweep value must be a number, a boolean or a duration, got %q", x)
		}
		return d.Seconds(), nil
	}
	return 0, fmt.Errorf("a sweep value must be a number, a boolean or a duration, got %s", typeName(v))
}

// With returns the base experiment's model with the settings at the given
// paths replaced (the same paths as a variant's set), read and checked
// like the file itself.
func (e *Experiment) With(set map[string]any) (topology.Config, error) {
	return e.derive("", set)
}

// VariantWith is With applied on top of the named variant ("base" or "" for
// the base itself).
func (e *Experiment) VariantWith(variant string, set map[string]any) (topology.Config, error) {
	return e.derive(variant, set)
}

func (e *Experiment) derive(variant string, set map[string]any) (topology.Config, error) {
	if e.doc == nil {
		return topology.Config{}, fmt.Errorf("experiment %q was not read from a file", e.Name)
	}
	doc := deepCopy(e.doc).(map[string]any)
	if variant != "" && variant != "base" {
		ov, ok := e.overrides[variant]
		if !ok {
			return topology.Config{}, fmt.Errorf("no variant named %q", variant)
		}
		for _, o := range ov {
			if err := o.apply(doc); err != nil {
				return topology.Config{}, err
			}
		}
	}
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := setPath(doc, k, deepCopy(set[k])); err != nil {
			return topology.Config{}, fmt.Errorf("%s: %v", k, err)
		}
	}
	r := &reader{file: e.File, pos: e.pos}
	x := r.experiment(r.root(doc))
	if len(r.errs) > 0 {
		var msgs []string
		for _, err := range r.errs {
			msgs = append(msgs, err.Key+": "+err.Msg)
		}
		return topology.Config{}, fmt.Errorf("%s", strings.Join(msgs, "; "))
	}
	if err := x.Model.Validate(); err != nil {
		return topology.Config{}, err
	}
	return x.Model, nil
}

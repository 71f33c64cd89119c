package experiment

import (
	"fmt"

	"github.com/ressim/ressim/sim/headline"
)

// Expect is an [[expect]] block: a bound on a headline metric of one
// variant, checked by ressim run (base only) and ressim compare, which
// exit with status 3 when one fails. Metrics are averaged over the
// replications.
type Expect struct {
	// Variant is "base" (the default) or a variant's name.
	Variant string
	// Metric is a headline metric (sim/headline: goodput, p99_latency,
	// success_ratio, ..., locked_in_probability); the zero Key when the
	// block names none (an error).
	Metric headline.Key
	// Min and Max bound the value; nil means unbounded.
	Min, Max *float64
	// Where is "file:line" of the block, for messages.
	Where string
}

// ExpectMetrics are the names of the metrics an expectation may bound:
// every headline metric, as for a sweep.
var ExpectMetrics = SweepMetrics

func (r *reader) expects(root *table, e *Experiment) []Expect {
	var out []Expect
	for _, t := range root.tables("expect") {
		if t.has("alert") {
			e.AlertExpects = append(e.AlertExpects, r.alertExpect(t, e))
			continue
		}
		t.anyKeys = alertExpectKeys
		x := Expect{Variant: "base"}
		pos := r.pos.lookup(t.path)
		x.Where = fmt.Sprintf("%s:%d", r.file, pos.Line)
		if v, ok := t.str("variant", false); ok {
			if _, known := e.overrides[v]; !known && v != "base" {
				r.errorf(t.key("variant"), "no variant named %q", v)
			}
			x.Variant = v
		}
		if i, ok := t.oneOf("metric", ExpectMetrics); ok {
			x.Metric, _ = headline.Lookup(ExpectMetrics[i])
		} else if !t.has("metric") {
			r.errorf(t.path, "missing required key \"metric\"")
		}
		for _, k := range []string{"min", "max"} {
			if v, ok := t.number(k, false, -1e18, 1e18, false, "the metric's unit"); ok {
				v := v
				if k == "min" {
					x.Min = &v
				} else {
					x.Max = &v
				}
			}
		}
		if x.Min == nil && x.Max == nil && !t.has("min") && !t.has("max") {
			r.errorf(t.path, "an expectation needs min, max or both")
		}
		t.done("variant", "metric", "min", "max")
		r.satisfiable(t, x, e)
		out = append(out, x)
	}
	return out
}

// satisfiable reports an expectation that no run could meet, at the key
// that makes it so: every headline metric is >= 0, a ratio (Def.Ratio) is
// at most 1, and a metric judged after a fault (Def.AfterFault) has no
// value without one, so that the expectation could never pass.
func (r *reader) satisfiable(t *table, x Expect, e *Experiment) {
	switch {
	case x.Min != nil && x.Max != nil && *x.Min > *x.Max:
		r.errorf(t.key("max"), "max %g is below min %g: no value can pass", *x.Max, *x.Min)
	case x.Max != nil && *x.Max < 0:
		r.errorf(t.key("max"), "max %g is negative, and %s is never negative", *x.Max, x.Metric)
	case x.Min != nil && *x.Min > 1 && x.Metric.Def().Ratio:
		r.errorf(t.key("min"), "min %g is above 1, and %s is at most 1", *x.Min, x.Metric)
	}
	if x.Metric.Def().AfterFault && !variantHasFault(e, x.Variant) {
		r.errorf(t.key("metric"), "%s is judged after a [[fault]], and %s has none: the expectation could never pass", x.Metric, variantLabel(x.Variant))
	}
}

// variantHasFault reports whether the named variant's model (as far as it
// is known: the base's when the variant could not be built) has a fault.
func variantHasFault(e *Experiment, name string) bool {
	for _, v := range e.Variants {
		if v.Name == name {
			return len(v.Model.Faults) > 0
		}
	}
	return len(e.Model.Faults) > 0 || e.doc["fault"] != nil
}

func variantLabel(name string) string {
	if name == "" || name == "base" {
		return "the base experiment"
	}
	return fmt.Sprintf("variant %q", name)
}

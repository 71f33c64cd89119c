package experiment

import "fmt"

// Expect is an [[expect]] block: a bound on a headline metric of one
// variant, checked by ressim run (base only) and ressim compare, which
// exit with status 3 when one fails. Metrics are averaged over the
// replications.
type Expect struct {
	// Variant is "base" (the default) or a variant's name.
	Variant string
	// Metric is a headline metric (goodput, p99_latency, success_ratio,
	// amplification, wasted_work, recovery_time) or locked_in_probability.
	Metric string
	// Min and Max bound the value; nil means unbounded.
	Min, Max *float64
	// Where is "file:line" of the block, for messages.
	Where string
}

// ExpectMetrics are the metrics an expectation may bound.
var ExpectMetrics = SweepMetrics

func (r *reader) expects(root *table, e *Experiment) []Expect {
	var out []Expect
	for _, t := range root.tables("expect") {
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
			x.Metric = ExpectMetrics[i]
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
		out = append(out, x)
	}
	return out
}

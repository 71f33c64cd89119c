package promql

import (
	"math"
)

// binary evaluates an arithmetic, comparison or set operation.
func (ev *evaluator) binary(b *Binary) value {
	l, r := ev.eval(b.LHS), ev.eval(b.RHS)
	switch {
	case l.scalar && r.scalar:
		v, keep := elemBinop(b.Op, l.s, r.s)
		if b.ReturnBool {
			v = boolValue(keep)
		}
		return value{scalar: true, s: v}
	case isSetOp(b.Op):
		return value{vec: ev.setOp(b, l.vec, r.vec)}
	case l.scalar || r.scalar:
		out := ev.vectorScalar(b, l, r)
		ev.checkUnique(out)
		return value{vec: out}
	}
	out := ev.vectorVector(b, l.vec, r.vec)
	ev.checkUnique(out)
	return value{vec: out}
}

func boolValue(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// elemBinop is the operation on two values; for a comparison the value is
// the left one and keep says whether the comparison holds.
func elemBinop(op string, l, r float64) (float64, bool) {
	switch op {
	case "+":
		return l + r, true
	case "-":
		return l - r, true
	case "*":
		return l * r, true
	case "/":
		return l / r, true
	case "%":
		return math.Mod(l, r), true
	case "^":
		return math.Pow(l, r), true
	case "==":
		return l, l == r
	case "!=":
		return l, l != r
	case ">":
		return l, l > r
	case "<":
		return l, l < r
	case ">=":
		return l, l >= r
	case "<=":
		return l, l <= r
	}
	panic("promql: unknown operator " + op)
}

// vectorScalar applies the operation to every sample of the vector side;
// a comparison keeps the vector's value whichever side it is on, and
// arithmetic (or bool) drops __name__.
func (ev *evaluator) vectorScalar(b *Binary, l, r value) []sample {
	vec, s, swap := l.vec, r.s, false
	if l.scalar {
		vec, s, swap = r.vec, l.s, true
	}
	out := make([]sample, 0, len(vec))
	for _, x := range vec {
		lv, rv := x.v, s
		if swap {
			lv, rv = rv, lv
		}
		v, keep := elemBinop(b.Op, lv, rv)
		if isComparison(b.Op) && swap {
			v = rv
		}
		if b.ReturnBool {
			v = boolValue(keep)
		} else if !keep {
			continue
		}
		lbls := x.lbls
		if !isComparison(b.Op) || b.ReturnBool {
			lbls = lbls.dropName()
		}
		out = append(out, sample{lbls, v})
	}
	return out
}

// signature is the key two samples match on.
func signature(m *Matching, ls Labels) string {
	if m.On {
		return ls.only(m.Labels...).key()
	}
	return ls.without(append([]string{MetricName}, m.Labels...)...).key()
}

// vectorVector is one-to-one matching: each left sample with the right
// sample of the same signature; duplicates on the right, or two kept
// left samples of one signature, are errors as in Prometheus.
func (ev *evaluator) vectorVector(b *Binary, lhs, rhs []sample) []sample {
	if len(lhs) == 0 || len(rhs) == 0 {
		return nil
	}
	m := b.Matching
	right := make(map[string]sample, len(rhs)) // lookup only
	for _, r := range rhs {
		sig := signature(m, r.lbls)
		if d, dup := right[sig]; dup {
			ev.errorf("found duplicate series for the match group on the right hand-side of the operation: [%v, %v];many-to-many matching not allowed: matching labels must be unique on one side", r.lbls, d.lbls)
		}
		right[sig] = r
	}
	matched := make(map[string]bool) // lookup only
	var out []sample
	for _, l := range lhs {
		sig := signature(m, l.lbls)
		r, ok := right[sig]
		if !ok {
			continue
		}
		v, keep := elemBinop(b.Op, l.v, r.v)
		if b.ReturnBool {
			v = boolValue(keep)
		} else if !keep {
			continue
		}
		lbls := l.lbls
		if !isComparison(b.Op) {
			lbls = lbls.dropName()
		}
		if m.On {
			lbls = lbls.only(m.Labels...)
		} else {
			lbls = lbls.without(m.Labels...)
		}
		if b.ReturnBool {
			lbls = lbls.dropName()
		}
		if matched[sig] {
			ev.errorf("multiple matches for labels: many-to-one matching must be explicit (group_left/group_right)")
		}
		matched[sig] = true
		out = append(out, sample{lbls, v})
	}
	return out
}

// setOp is and, or, unless on the matching signatures; the samples keep
// their labels.
func (ev *evaluator) setOp(b *Binary, lhs, rhs []sample) []sample {
	m := b.Matching
	ev.charge(len(lhs) + len(rhs))
	switch b.Op {
	case "and":
		if len(lhs) == 0 || len(rhs) == 0 {
			return nil
		}
		sigs := make(map[string]bool, len(rhs)) // lookup only
		for _, r := range rhs {
			sigs[signature(m, r.lbls)] = true
		}
		var out []sample
		for _, l := range lhs {
			if sigs[signature(m, l.lbls)] {
				out = append(out, l)
			}
		}
		return out
	case "or":
		if len(lhs) == 0 {
			return rhs
		}
		if len(rhs) == 0 {
			return lhs
		}
		sigs := make(map[string]bool, len(lhs)) // lookup only
		out := append([]sample(nil), lhs...)
		for _, l := range lhs {
			sigs[signature(m, l.lbls)] = true
		}
		for _, r := range rhs {
			if !sigs[signature(m, r.lbls)] {
				out = append(out, r)
			}
		}
		return out
	default: // unless
		if len(lhs) == 0 || len(rhs) == 0 {
			return lhs
		}
		sigs := make(map[string]bool, len(rhs)) // lookup only
		for _, r := range rhs {
			sigs[signature(m, r.lbls)] = true
		}
		var out []sample
		for _, l := range lhs {
			if !sigs[signature(m, l.lbls)] {
				out = append(out, l)
			}
		}
		return out
	}
}

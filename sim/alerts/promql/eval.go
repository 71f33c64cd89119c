package promql

import (
	"fmt"
	"slices"
)

// sample is one element of an instant vector.
type sample struct {
	lbls Labels
	v    float64
}

// value is an expression's value at one time: a scalar or an instant
// vector.
type value struct {
	scalar bool
	s      float64
	vec    []sample
}

// evaluator evaluates expressions on a storage at one time after another,
// counting the samples it visits.
type evaluator struct {
	st   *storage
	t    int64 // milliseconds
	cost int64
	buf  []fpoint
	// cache holds each selector's matches, per evaluation (the parsed
	// rules are shared).
	cache map[*VectorSelector]*selCache
}

// match returns the series vs matches.
func (ev *evaluator) match(vs *VectorSelector) []*memSeries {
	c, ok := ev.cache[vs]
	if !ok {
		c = &selCache{}
		ev.cache[vs] = c
	}
	return ev.st.match(vs, c)
}

// evalError carries an evaluation error up the recursion.
type evalError struct{ err error }

func (ev *evaluator) errorf(format string, args ...any) {
	panic(evalError{fmt.Errorf("promql: "+format, args...)})
}

// charge adds n to the cost and stops the evaluation past the budget.
func (ev *evaluator) charge(n int) {
	if ev.cost += int64(n); ev.cost > ev.st.lim.MaxCost {
		ev.errorf("evaluation visited more than %d samples (the cost budget)", ev.st.lim.MaxCost)
	}
}

// account is charge outside an expression's evaluation.
func (ev *evaluator) account(n int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			ee, ok := r.(evalError)
			if !ok {
				panic(r)
			}
			err = ee.err
		}
	}()
	ev.charge(n)
	return nil
}

// instant evaluates e at time t (milliseconds).
func (ev *evaluator) instant(e Expr, t int64) (v value, err error) {
	ev.t = t
	defer func() {
		if r := recover(); r != nil {
			ee, ok := r.(evalError)
			if !ok {
				panic(r)
			}
			err = ee.err
		}
	}()
	return ev.eval(e), nil
}

func (ev *evaluator) eval(e Expr) value {
	switch e := e.(type) {
	case *NumberLiteral:
		return value{scalar: true, s: e.Val}
	case *Paren:
		return ev.eval(e.Expr)
	case *Unary:
		v := ev.eval(e.Expr)
		if v.scalar {
			v.s = -v.s
			return v
		}
		for i := range v.vec {
			v.vec[i] = sample{v.vec[i].lbls.dropName(), -v.vec[i].v}
		}
		ev.checkUnique(v.vec)
		return v
	case *VectorSelector:
		return value{vec: ev.selectInstant(e)}
	case *Call:
		out := e.Func.call(ev, e)
		if e.Func.ret == ScalarType {
			return value{scalar: true, s: out[0].v}
		}
		ev.checkUnique(out)
		return value{vec: out}
	case *Aggregate:
		return value{vec: ev.aggregate(e, ev.eval(e.Expr).vec)}
	case *Binary:
		return ev.binary(e)
	}
	ev.errorf("cannot evaluate %T", e)
	return value{}
}

func (ev *evaluator) selectInstant(vs *VectorSelector) []sample {
	ms := ev.match(vs)
	ev.charge(len(ms))
	var out []sample
	for _, s := range ms {
		if v, ok := s.at(ev.t); ok {
			out = append(out, sample{s.lbls, v})
		}
	}
	return out
}

// checkUnique fails as Prometheus does when an operation leaves two
// samples with the same labels (by dropping __name__).
func (ev *evaluator) checkUnique(vec []sample) {
	ev.charge(len(vec))
	if len(vec) < 2 {
		return
	}
	if len(vec) < 8 {
		for i := range vec {
			for j := i + 1; j < len(vec); j++ {
				if Compare(vec[i].lbls, vec[j].lbls) == 0 {
					ev.errorf("vector cannot contain metrics with the same labelset")
				}
			}
		}
		return
	}
	keys := make([]string, len(vec))
	for i, s := range vec {
		keys[i] = s.lbls.key()
	}
	slices.Sort(keys)
	for i := 1; i < len(keys); i++ {
		if keys[i] == keys[i-1] {
			ev.errorf("vector cannot contain metrics with the same labelset")
		}
	}
}

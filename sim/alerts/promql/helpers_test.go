package promql

import (
	"math"
	"testing"
	"time"
)

// series builds a series named by sel's labels, with one point every
// step from 0 (NaN: no point).
func series(ls Labels, step time.Duration, vals ...float64) Series {
	s := Series{Labels: ls}
	for i, v := range vals {
		if !math.IsNaN(v) {
			s.Points = append(s.Points, Point{time.Duration(i) * step, v})
		}
	}
	return s
}

// evalAt evaluates expr on in at t.
func evalAt(t *testing.T, in []Series, expr string, at time.Duration) value {
	t.Helper()
	e, err := Parse(expr)
	if err != nil {
		t.Fatal(err)
	}
	st, err := newStorage(in, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	ev := &evaluator{st: st, cache: make(map[*VectorSelector]*selCache)}
	v, err := ev.instant(e, at.Milliseconds())
	if err != nil {
		t.Fatalf("%s at %v: %v", expr, at, err)
	}
	return v
}

// only returns the single sample's value of a vector, or NaN with ok
// false if it is empty.
func only(t *testing.T, v value) (float64, bool) {
	t.Helper()
	if v.scalar {
		return v.s, true
	}
	switch len(v.vec) {
	case 0:
		return math.NaN(), false
	case 1:
		return v.vec[0].v, true
	}
	t.Fatalf("%d samples, want at most 1", len(v.vec))
	return 0, false
}

package queueing

import (
	"errors"
	"math"
	"testing"
)

// Exact values of the classical models (Erlang B and C, M/M/1 sojourn
// quantile -ln(1-q)/(mu-lambda), Pollaczek-Khinchine for M/D/1, the M/M/c/K
// and Erlang A birth-death chains), recomputed independently in Python
// (2026-12-02) from the same closed forms and chains and rounded to the
// digits written here; each tolerance is half a unit in the last digit.
func TestClosedFormValues(t *testing.T) {
	near := func(name string, got, want, tol float64) {
		t.Helper()
		if math.Abs(got-want) > tol {
			t.Errorf("%s = %.7g, want %.7g (±%g)", name, got, want, tol)
		}
	}
	mm1 := MMc{Lambda: 50, Mu: 100, C: 1}
	wq, _ := mm1.Wq()
	w, _ := mm1.W()
	near("M/M/1 Wq", wq, 0.0100, 5e-5)
	near("M/M/1 W", w, 0.0200, 5e-5)
	p99, _ := SojournQuantileMM1(50, 100, 0.99)
	near("M/M/1 p99(W)", p99, 0.092103, 5e-7)

	mm10 := MMc{Lambda: 900, Mu: 100, C: 10}
	pw, _ := mm10.PWait()
	wq, _ = mm10.Wq()
	w, _ = mm10.W()
	near("M/M/10 P(wait)", pw, 0.668732, 5e-7)
	near("M/M/10 Wq", wq, 0.0066873, 5e-8)
	near("M/M/10 W", w, 0.0166873, 5e-8)

	b, _ := ErlangB(10, 9)
	near("Erlang B(10, 9)", b, 0.167963, 5e-7)
	bk, _ := MMcK{Lambda: 900, Mu: 100, C: 10, K: 10}.PBlock()
	near("M/M/10/10 P(block)", bk, b, 1e-12)

	k20 := MMcK{Lambda: 900, Mu: 100, C: 10, K: 20}
	pb, _ := k20.PBlock()
	wq, _ = k20.Wq()
	near("M/M/10/20 P(block)", pb, 0.029510, 5e-7)
	near("M/M/10/20 Wq", wq, 0.0026393, 5e-8)

	// M/D/1: E[S^2] = S^2.
	md1, _ := MG1Wq(90, 0.01, 0.0001)
	near("M/D/1 Wq", md1, 0.0450, 5e-5)

	ea, _ := ErlangA{Lambda: 1000, Mu: 100, Theta: 20, C: 10}.PAbandon()
	near("Erlang A P(abandon)", ea, 0.077693, 5e-7)
}

// M/M/c/K with K large approaches M/M/c.
func TestMMcKApproachesMMc(t *testing.T) {
	wq, _ := MMc{Lambda: 900, Mu: 100, C: 10}.Wq()
	wqK, _ := MMcK{Lambda: 900, Mu: 100, C: 10, K: 2000}.Wq()
	if math.Abs(wq-wqK) > 1e-12 {
		t.Fatalf("M/M/10/2000 Wq %v, M/M/10 Wq %v", wqK, wq)
	}
}

func TestErrors(t *testing.T) {
	if _, err := (MMc{Lambda: 1000, Mu: 100, C: 10}).Wq(); !errors.Is(err, ErrUnstable) {
		t.Errorf("rho = 1: err = %v, want ErrUnstable", err)
	}
	if _, err := (MMc{Lambda: 0, Mu: 100, C: 10}).Wq(); !errors.Is(err, ErrParam) {
		t.Errorf("lambda 0: err = %v, want ErrParam", err)
	}
	if _, err := ErlangB(3, -1); !errors.Is(err, ErrParam) {
		t.Errorf("ErlangB(a<0): err = %v", err)
	}
	if _, err := (MMcK{Lambda: 1, Mu: 1, C: 5, K: 4}).PBlock(); !errors.Is(err, ErrParam) {
		t.Errorf("K < c: err = %v", err)
	}
	if _, err := MG1Wq(200, 0.01, 0.0001); !errors.Is(err, ErrUnstable) {
		t.Errorf("M/G/1 rho 2: err = %v", err)
	}
	if _, err := SojournQuantileMM1(1, 2, 1); !errors.Is(err, ErrParam) {
		t.Errorf("quantile 1: err = %v", err)
	}
	if _, err := (ErlangA{Lambda: 1, Mu: 1, C: 1}).PAbandon(); !errors.Is(err, ErrParam) {
		t.Errorf("theta 0: err = %v", err)
	}
}

package limit

import (
	"math"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

func TestLimiterSteps(t *testing.T) {
	cfg := DefaultAIMDConfig()
	cfg.InitialLimit = 5
	a, _ := NewAIMD(cfg)
	lim, err := NewLimiter(a)
	if err != nil {
		t.Fatal(err)
	}
	var toks []Token
	steps := []struct {
		at       time.Duration
		action   string // "acquire" or "release"
		release  int    // index into toks for "release"
		outcome  policies.Outcome
		wantOK   bool // acquire admitted
		wantIn   int  // Inflight after
		wantFrom int  // release: Transition.From
		wantTo   int  // release: Transition.To (and Limit after)
	}{
		{at: 0, action: "acquire", wantOK: true, wantIn: 1},
		{at: 1 * ms, action: "acquire", wantOK: true, wantIn: 2},
		{at: 2 * ms, action: "acquire", wantOK: true, wantIn: 3},
		{at: 3 * ms, action: "acquire", wantOK: true, wantIn: 4},
		{at: 4 * ms, action: "acquire", wantOK: true, wantIn: 5},
		{at: 5 * ms, action: "acquire", wantOK: false, wantIn: 5}, // in-flight 5 >= limit 5: reject
		// tok 4 was admitted with 5 in flight >= 0.9 x 5: +1/5
		{at: 14 * ms, action: "release", release: 4, outcome: policies.Success, wantIn: 4, wantFrom: 5, wantTo: 5},
		// timeout: x0.9 -> 4.68
		{at: 300 * ms, action: "release", release: 0, outcome: policies.Timeout, wantIn: 3, wantFrom: 5, wantTo: 4},
		// error: no sample
		{at: 301 * ms, action: "release", release: 1, outcome: policies.Error, wantIn: 2, wantFrom: 4, wantTo: 4},
		// circuit open: no sample, even with a long rtt
		{at: 900 * ms, action: "release", release: 2, outcome: policies.CircuitOpen, wantIn: 1, wantFrom: 4, wantTo: 4},
		{at: 901 * ms, action: "acquire", wantOK: true, wantIn: 2},
		{at: 902 * ms, action: "acquire", wantOK: true, wantIn: 3},
		{at: 903 * ms, action: "acquire", wantOK: true, wantIn: 4},
		{at: 904 * ms, action: "acquire", wantOK: false, wantIn: 4}, // limit is now 4
		// rejected by the callee (429): a drop, 4.68 x 0.9 = 4.21
		{at: 905 * ms, action: "release", release: 3, outcome: policies.Rejected, wantIn: 3, wantFrom: 4, wantTo: 4},
	}
	for i, s := range steps {
		switch s.action {
		case "acquire":
			tok, ok := lim.Acquire(s.at)
			if ok != s.wantOK {
				t.Fatalf("step %d at %v: Acquire ok %v, want %v", i, s.at, ok, s.wantOK)
			}
			if ok {
				if tok.Start != s.at || tok.Inflight != s.wantIn {
					t.Errorf("step %d: token %+v, want start %v inflight %d", i, tok, s.at, s.wantIn)
				}
				toks = append(toks, tok)
			}
		case "release":
			tr := lim.Release(s.at, toks[s.release], s.outcome)
			if tr.At != s.at || tr.From != s.wantFrom || tr.To != s.wantTo {
				t.Errorf("step %d at %v: transition %+v, want {%v %d %d}", i, s.at, tr, s.at, s.wantFrom, s.wantTo)
			}
			if tr.Changed() != (s.wantFrom != s.wantTo) {
				t.Errorf("step %d: Changed %v", i, tr.Changed())
			}
		}
		if lim.Inflight() != s.wantIn {
			t.Errorf("step %d at %v: Inflight %d, want %d", i, s.at, lim.Inflight(), s.wantIn)
		}
	}
	if got, want := a.Estimate(), 5.2*0.9*0.9; math.Abs(got-want) > 1e-12 {
		t.Errorf("final estimate %v, want %v", got, want)
	}
	if lim.Limit() != 4 {
		t.Errorf("final Limit %d, want 4", lim.Limit())
	}
}

func TestLimiterReleaseWithoutAcquire(t *testing.T) {
	a, _ := NewAIMD(DefaultAIMDConfig())
	lim, _ := NewLimiter(a)
	lim.Release(0, Token{}, policies.Cancelled)
	if lim.Inflight() != 0 {
		t.Errorf("Inflight %d after a stray release, want 0", lim.Inflight())
	}
}

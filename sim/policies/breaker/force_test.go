package breaker

import (
	"testing"

	"github.com/ressim/ressim/sim/policies"
)

func TestForceSteps(t *testing.T) {
	tests := []struct {
		name  string
		steps []step
	}{
		{"forced open refuses every call and never probes", []step{
			{at: 0, op: force, mode: ForcedOpen, wantOK: true, wantTo: Open, wantWhy: Forced},
			{at: 0, op: allow, wantOK: false},
			{at: 0, op: probeAt, wantOK: false},
			{at: 1 * sec, op: refresh, wantOK: false},
			{at: 100 * sec, op: allow, wantOK: false},
			{at: 100 * sec, op: state, wantTo: Open},
			{at: 100 * sec, op: force, mode: ForcedOpen, wantOK: false}, // already
		}},
		{"forced open while open stops the pause", []step{
			{at: 0, op: call, out: fail, n: 4, wantOK: true, wantTo: Open, wantWhy: FailureRate},
			{at: 0, op: probeAt, wantAt: 1 * sec, wantOK: true},
			{at: 500 * ms, op: force, mode: ForcedOpen, wantOK: true, wantTo: Open, wantWhy: Forced},
			{at: 2 * sec, op: allow, wantOK: false},
			{at: 2 * sec, op: state, wantTo: Open},
		}},
		{"forced open drops a half-open probe's result", []step{
			{at: 0, op: call, out: fail, n: 4, wantOK: true, wantTo: Open, wantWhy: FailureRate},
			{at: 1 * sec, op: allow, wantOK: true}, // a probe
			{at: 1 * sec, op: force, mode: ForcedOpen, wantOK: true, wantTo: Open, wantWhy: Forced},
			{at: 1100 * ms, op: record, out: ok, wantOK: false},
			{at: 2 * sec, op: state, wantTo: Open},
		}},
		{"forced closed admits every call and records nothing", []step{
			{at: 0, op: call, out: fail, n: 4, wantOK: true, wantTo: Open, wantWhy: FailureRate},
			{at: 100 * ms, op: force, mode: ForcedClosed, wantOK: true, wantTo: Closed, wantWhy: Forced},
			{at: 200 * ms, op: call, out: fail, n: 50},
			{at: 200 * ms, op: call, out: ok, lat: 10 * sec, n: 50},
			{at: 300 * ms, op: state, wantTo: Closed},
			{at: 300 * ms, op: probeAt, wantOK: false},
		}},
		{"auto after forced open: closed, window empty, trips reset", []step{
			{at: 0, op: call, out: fail, n: 4, wantOK: true, wantTo: Open, wantWhy: FailureRate},
			{at: 1 * sec, op: call, out: fail, wantOK: true, wantTo: Open, wantWhy: ProbeFailed},
			{at: 2 * sec, op: force, mode: ForcedOpen, wantOK: true, wantTo: Open, wantWhy: Forced},
			{at: 10 * sec, op: force, mode: Auto, wantOK: true, wantTo: Closed, wantWhy: Released},
			{at: 10 * sec, op: allow, wantOK: true},
			{at: 11 * sec, op: call, out: fail, n: 2}, // the kept permit plus 2: below the minimum
			{at: 11 * sec, op: state, wantTo: Closed},
			{at: 11 * sec, op: record, out: fail},
			{at: 12 * sec, op: call, out: fail, wantOK: true, wantTo: Open, wantWhy: FailureRate},
			// No consecutive trips were carried over: the first pause, 1 s.
			{at: 12 * sec, op: probeAt, wantAt: 13 * sec, wantOK: true},
		}},
		{"auto after forced closed: the state machine trips again", []step{
			{at: 0, op: force, mode: ForcedClosed, wantOK: true, wantTo: Closed, wantWhy: Forced},
			{at: 0, op: call, out: fail, n: 10},
			{at: 1 * sec, op: force, mode: Auto, wantOK: true, wantTo: Closed, wantWhy: Released},
			{at: 1 * sec, op: force, mode: Auto, wantOK: false}, // already
			{at: 2 * sec, op: call, out: fail, n: 3},
			{at: 2 * sec, op: call, out: fail, wantOK: true, wantTo: Open, wantWhy: FailureRate},
		}},
		{"forced closed to forced open", []step{
			{at: 0, op: force, mode: ForcedClosed, wantOK: true, wantTo: Closed, wantWhy: Forced},
			{at: 1 * sec, op: force, mode: ForcedOpen, wantOK: true, wantTo: Open, wantWhy: Forced},
			{at: 1 * sec, op: allow, wantOK: false},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { run(t, testConfig(), tt.steps) })
	}
}

func TestForceMode(t *testing.T) {
	b, err := New(testConfig())
	if err != nil {
		t.Fatal(err)
	}
	if b.Mode() != Auto {
		t.Fatalf("new breaker's mode = %v", b.Mode())
	}
	p, _ := b.Allow(0)
	g := b.Generation()
	b.Force(0, ForcedClosed)
	if b.Mode() != ForcedClosed || b.Generation() != g+1 {
		t.Fatalf("mode %v, generation %d (was %d)", b.Mode(), b.Generation(), g)
	}
	if _, moved := b.Record(0, p, policies.Error, 0); moved || b.Counts(0).Calls != 0 {
		t.Fatalf("a result was recorded while forced closed: %+v", b.Counts(0))
	}
	if _, ok := b.Force(0, Mode(9)); ok {
		t.Fatal("an unknown mode changed the breaker")
	}
	for m, want := range map[Mode]string{Auto: "auto", ForcedOpen: "open", ForcedClosed: "closed", Mode(9): "unknown"} {
		if m.String() != want {
			t.Errorf("Mode(%d).String() = %q, want %q", m, m.String(), want)
		}
	}
	if Forced.String() != "forced" || Released.String() != "released" {
		t.Errorf("reasons: %q, %q", Forced, Released)
	}
}

package experiment

import (
	"github.com/ressim/ressim/sim/topology"
)

// step reads one [[service.step]]: exactly one of work, call, parallel.
func (r *reader) step(t *table) (topology.Step, bool) {
	kinds := 0
	for _, k := range []string{"work", "call", "parallel", "choose"} {
		if t.has(k) {
			kinds++
		}
	}
	if kinds != 1 {
		r.errorf(t.path, "a step needs exactly one of work = {dist...}, call = \"service\", parallel = [ ... ] or choose = [ ... ], got %d", kinds)
		t.get("work")
		t.get("call")
		t.get("parallel")
		t.get("choose")
		return topology.Step{}, false
	}
	switch {
	case t.has("work"):
		wt, ok := t.sub("work", true)
		if !ok {
			return topology.Step{}, false
		}
		d, ok := r.dist(wt)
		t.done("work")
		return topology.Step{Kind: topology.WorkStep, Work: d}, ok
	case t.has("call"):
		cc, ok := r.callConfig(t)
		return topology.Step{Kind: topology.CallStep, Calls: []topology.CallConfig{cc}}, ok
	}
	if t.has("choose") {
		return r.chooseStep(t)
	}
	calls := t.tables("parallel")
	t.done("parallel")
	if len(calls) == 0 {
		r.errorf(t.key("parallel"), "needs at least one call table, e.g. parallel = [ { call = \"a\" }, { call = \"b\" } ]")
		return topology.Step{}, false
	}
	step := topology.Step{Kind: topology.ParallelStep}
	ok := true
	for _, ct := range calls {
		cc, cok := r.callConfig(ct)
		step.Calls = append(step.Calls, cc)
		ok = ok && cok
	}
	return step, ok
}

// chooseStep reads choose = [ { call = "a", weight = 80 }, ... ]: one of
// the calls per request, drawn by weight (topology.ChooseStep).
func (r *reader) chooseStep(t *table) (topology.Step, bool) {
	calls := t.tables("choose")
	t.done("choose")
	if len(calls) < 2 {
		r.errorf(t.key("choose"), "needs at least two call tables with weights, e.g. choose = [ { call = \"v1\", weight = 80 }, { call = \"v2\", weight = 20 } ]")
		return topology.Step{}, false
	}
	step := topology.Step{Kind: topology.ChooseStep}
	ok := true
	for _, ct := range calls {
		w, wok := ct.ranged("weight", true, topology.SettingCallWeight.Range())
		cc, cok := r.callConfig(ct, "weight")
		cc.Weight = w
		step.Calls = append(step.Calls, cc)
		ok = ok && cok && wok
	}
	return step, ok
}

var callKeys = []string{"call", "operation", "critical", "probability", "timeout", "retry", "hedge", "network",
	"bulkhead", "breaker", "retry_budget", "fallback"}

// callConfig reads a downstream call from t (a step, or an element of
// parallel or choose); extra are the other keys t may have (choose's
// weight).
func (r *reader) callConfig(t *table, extra ...string) (topology.CallConfig, bool) {
	cc := topology.CallConfig{Critical: true, Probability: 1}
	ok := true
	var sok bool
	cc.Service, sok = t.str("call", true)
	ok = ok && sok
	cc.Operation, _ = t.str("operation", false)
	cc.Critical, _ = t.boolean("critical", true)
	if p, pok := t.ranged("probability", false, topology.SettingCallProbability.Range()); pok {
		cc.Probability = p
	} else if t.has("probability") {
		ok = false
	}
	pol, pok := r.callPolicy(t)
	cc.Policy = pol
	t.done(append(extra, callKeys...)...)
	// Remember where the call is, to report an unknown service there.
	r.calls = append(r.calls, callRef{path: t.key("call"), service: cc.Service, op: cc.Operation})
	return cc, ok && pok
}

package run

import (
	"encoding/json"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run/output"
)

// TestSummaryHedgesAndCancelled: summary.json lists a hedged call's
// hedges and lost copies, and a cancelling service's cancelled handlers,
// and leaves all three out where the feature is off (the base of
// experiments/hedging.toml), so that older summaries keep their bytes.
func TestSummaryHedgesAndCancelled(t *testing.T) {
	exp, err := experiment.Load("../../experiments/hedging.toml")
	if err != nil {
		t.Fatal(err)
	}
	type fields struct {
		Services map[string]map[string]any `json:"services"`
		Calls    map[string]map[string]any `json:"calls"`
	}
	summary := func(variant string) fields {
		t.Helper()
		mem := &output.Memory{}
		if _, err := Execute(exp, Options{Replica: &Replica{Variant: variant}}, mem); err != nil {
			t.Fatal(err)
		}
		var f fields
		if err := json.Unmarshal(mem.Data(SummaryFile), &f); err != nil {
			t.Fatal(err)
		}
		return f
	}
	on, off := summary("hedged-cancelled"), summary("base")
	call := "client:users->api/call"
	if h, _ := on.Calls[call]["hedges"].(float64); h == 0 {
		t.Errorf("hedged call: hedges %v, want > 0 (calls: %v)", on.Calls[call]["hedges"], on.Calls)
	}
	if _, ok := on.Calls[call]["hedges_lost"]; !ok {
		t.Errorf("hedged call: no hedges_lost")
	}
	if c, _ := on.Services["api"]["cancelled"].(float64); c == 0 {
		t.Errorf("cancelling api: cancelled %v, want > 0", on.Services["api"]["cancelled"])
	}
	for _, k := range []string{"hedges", "hedges_lost"} {
		if _, ok := off.Calls[call][k]; ok {
			t.Errorf("base: %s present without hedging", k)
		}
	}
	if _, ok := off.Services["api"]["cancelled"]; ok {
		t.Error("base: cancelled present without cancellation")
	}
}

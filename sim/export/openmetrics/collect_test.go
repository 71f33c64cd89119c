package openmetrics

import (
	"testing"
)

// TestAttemptsAreFirstTriesPlusRetries: for a client's call site every
// user request is one first try, so over every interval the attempts
// counter grows by the requests sent plus the retries, exactly (the
// counters are whole numbers recovered from rates). Checked on the retry
// storm, whose lock-in triples the attempts.
func TestAttemptsAreFirstTriesPlusRetries(t *testing.T) {
	res := runFile(t, bundled+"metastable-retry-storm.toml")
	all, err := Collect(res)
	if err != nil {
		t.Fatal(err)
	}
	find := func(name string) Series {
		t.Helper()
		for _, s := range all {
			if s.Name == name {
				return s
			}
		}
		t.Fatalf("no series %s", name)
		return Series{}
	}
	att, ret, sent := find("ressim_call_attempts_total"), find("ressim_call_retries_total"), find("ressim_client_requests_total")
	if len(att.Points) != len(sent.Points) || len(ret.Points) != len(sent.Points) {
		t.Fatalf("lengths differ: %d %d %d", len(att.Points), len(ret.Points), len(sent.Points))
	}
	for i, p := range att.Points {
		if want := sent.Points[i].V + ret.Points[i].V; p.V != want {
			t.Fatalf("at %v: %v attempts, %v sent + retries", p.T, p.V, want)
		}
	}
	last := len(att.Points) - 1
	if amp := att.Points[last].V / sent.Points[last].V; amp < 2 {
		t.Errorf("attempts per request over the storm %.2f, want the lock-in's near 3", amp)
	}
}

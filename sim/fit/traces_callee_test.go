package fit

import (
	"math"
	"strings"
	"testing"
)

// TestTracesCalleeWithoutSpans: a callee the traces show only from its
// callers (a database with no spans of its own) becomes a service whose
// own work is the mean duration of all the calls to it, weighted by
// their counts: api's 1,000 calls of 2 ms and batch's 10 of 200 ms give
// (1000 x 2 + 10 x 200) / 1010 = 3.96 ms. The largest caller's mean
// (200 ms, what the import took before) made postgres 50 times slower
// than api's calls show it. It is added once, however many callers.
func TestTracesCalleeWithoutSpans(t *testing.T) {
	facts := &TraceFacts{Source: "spans.json",
		Services: []TraceService{{Name: "api", Requests: 1000, MeanDuration: 0.005}, {Name: "batch", Requests: 10, MeanDuration: 0.3}},
		Edges: []TraceEdge{
			{Caller: "api", Callee: "postgres", Calls: 1000, CallerRequests: 1000, FanOut: 1, Latency: 0.002},
			{Caller: "batch", Callee: "postgres", Calls: 10, CallerRequests: 10, FanOut: 1, Latency: 0.2},
		}}
	m := &Model{Services: []Service{{Name: "api"}, {Name: "batch"}}}
	facts.apply(m, false)
	var pg []Service
	for _, s := range m.Services {
		if s.Name == "postgres" {
			pg = append(pg, s)
		}
	}
	if len(pg) != 1 {
		t.Fatalf("%d services named postgres, want 1", len(pg))
	}
	want := (1000*0.002 + 10*0.2) / 1010
	if w := pg[0].Work; w.Placeholder || math.Abs(w.V-want) > 1e-12 || !strings.Contains(w.From, "mean duration of the calls to it") {
		t.Errorf("postgres own work %+v, want %g s from the calls' mean", w, want)
	}

	// Calls with no duration leave a placeholder.
	untimed := &TraceFacts{Source: "spans.json", Edges: []TraceEdge{{Caller: "api", Callee: "cache", Calls: 5, CallerRequests: 5, FanOut: 1}}}
	m = &Model{Services: []Service{{Name: "api"}}}
	untimed.apply(m, false)
	if w := m.Services[len(m.Services)-1].Work; m.Services[len(m.Services)-1].Name != "cache" || !w.Placeholder || w.From != "no timed calls" {
		t.Errorf("untimed callee: %+v", m.Services[len(m.Services)-1])
	}
}

package fit

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/experiment"
)

// intoBulkhead merges a model of the one fitted service s into
// experiments/bulkhead.toml and returns the merged file and the warnings.
func intoBulkhead(t *testing.T, s Service) (string, []string) {
	t.Helper()
	src, err := os.ReadFile("../../experiments/bulkhead.toml")
	if err != nil {
		t.Fatal(err)
	}
	out, warnings, err := Into(&Model{Services: []Service{s}}, "bulkhead.toml", src, IntoOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return out, warnings
}

// TestIntoOperations merges a fitted service into one whose handlers are
// operations (experiments/bulkhead.toml: checkout's "product" operation has
// a work step, its "cart" operation a service_time of its own). The work
// step's work and the operation's service_time are each replaced in
// place, and the result reads back with the fitted values. Before, the
// reader's one work step for "cart" (which the file does not write) made
// Into write a work key into the operation's table, and the merge failed
// as invalid.
func TestIntoOperations(t *testing.T) {
	out, warnings := intoBulkhead(t, Service{Name: "checkout", Workers: Value{V: 50, From: "pool series"}, Work: Value{V: 0.003, From: "busy / throughput"}})
	for _, want := range []string{
		"    # replaced by fit: work = { dist = \"exponential\", mean = \"2ms\" }\n    work = { dist = \"exponential\", mean = \"3ms\" } # own work 3ms: busy / throughput\n",
		"  name = \"cart\"\n  # replaced by fit: service_time = { dist = \"exponential\", mean = \"2ms\" }\n  service_time = { dist = \"exponential\", mean = \"3ms\" } # own work 3ms: busy / throughput\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("merged file lacks\n%s\nin\n%s", want, out)
		}
	}
	if !strings.Contains(strings.Join(warnings, "\n"), "service checkout: 2 operations share one fitted own work") {
		t.Errorf("warnings %q lack the shared own work", warnings)
	}
	e, err := experiment.Parse("merged.toml", []byte(out))
	if err != nil {
		t.Fatal(err)
	}
	sc := e.Model.Services[0]
	if sc.Workers != 50 {
		t.Errorf("workers %d, want 50", sc.Workers)
	}
	for _, op := range sc.Operations {
		if d := op.Steps[0].Work; d.Mean() != 3*time.Millisecond {
			t.Errorf("operation %s: first step's work mean %v, want 3ms", op.Name, d.Mean())
		}
	}
}

// TestIntoAsync: an async service's pool is its max_in_flight, which the
// fitted pool size replaces (workers would be refused there), with its
// service_time.
func TestIntoAsync(t *testing.T) {
	out, _ := intoBulkhead(t, Service{Name: "recommendations", Workers: Value{V: 64, From: "pool series"}, Work: Value{V: 0.02, From: "busy / throughput"}})
	want := "mode = \"async\"\n# replaced by fit: max_in_flight = 100000\n# replaced by fit: service_time = { dist = \"lognormal\", mean = \"20ms\", sigma = 0.3 }\n" +
		"max_in_flight = 64 # pool series\nservice_time = { dist = \"exponential\", mean = \"20ms\" } # own work 20ms: busy / throughput\n"
	if !strings.Contains(out, want) || strings.Contains(out, "workers = 64") {
		t.Errorf("merged file lacks\n%s\nin\n%s", want, out)
	}
}

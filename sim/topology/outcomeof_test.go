package topology

import (
	"testing"

	"github.com/ressim/ressim/sim/policies"
)

// TestOutcomeOf checks outcomeOf's table against the mapping it encodes,
// for every status and a few beyond the last.
func TestOutcomeOf(t *testing.T) {
	want := func(st status) policies.Outcome {
		switch st {
		case stOK, stDegraded:
			return policies.Success
		case stRejected:
			return policies.Rejected
		case stDropped:
			return policies.DeadlineExceeded
		case stTimeout:
			return policies.Timeout
		case stCircuitOpen:
			return policies.CircuitOpen
		case stBulkheadFull:
			return policies.BulkheadFull
		}
		return policies.Error
	}
	if len(statusOutcomes) != len(statusNames) {
		t.Fatalf("statusOutcomes has %d entries for %d statuses", len(statusOutcomes), len(statusNames))
	}
	for st := status(0); st < 20; st++ {
		if got := outcomeOf(st); got != want(st) {
			t.Errorf("outcomeOf(%v) = %v, want %v", st, got, want(st))
		}
	}
}

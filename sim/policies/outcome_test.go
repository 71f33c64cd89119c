package policies

import "testing"

func TestOutcomeRoundTrip(t *testing.T) {
	for o := Outcome(0); o < numOutcomes; o++ {
		got, ok := ParseOutcome(o.String())
		if !ok || got != o {
			t.Errorf("ParseOutcome(%q) = %v, %v; want %v, true", o.String(), got, ok, o)
		}
	}
	if _, ok := ParseOutcome("nope"); ok {
		t.Error("ParseOutcome accepted an unknown name")
	}
	if Outcome(200).String() != "unknown" {
		t.Error("out-of-range outcome should print as unknown")
	}
}

func TestOutcomeClasses(t *testing.T) {
	tests := []struct {
		o              Outcome
		failure, local bool
	}{
		{Success, false, false},
		{Error, true, false},
		{Timeout, true, false},
		{Rejected, true, false},
		{CircuitOpen, false, true},
		{BulkheadFull, false, true},
		{DeadlineExceeded, false, true},
		{Cancelled, false, true},
	}
	for _, tt := range tests {
		if got := tt.o.IsFailure(); got != tt.failure {
			t.Errorf("%v.IsFailure() = %v, want %v", tt.o, got, tt.failure)
		}
		if got := tt.o.IsLocal(); got != tt.local {
			t.Errorf("%v.IsLocal() = %v, want %v", tt.o, got, tt.local)
		}
	}
}

func TestPriorityRoundTrip(t *testing.T) {
	for p := Priority(0); p < NumPriorities; p++ {
		got, ok := ParsePriority(p.String())
		if !ok || got != p {
			t.Errorf("ParsePriority(%q) = %v, %v; want %v, true", p.String(), got, ok, p)
		}
	}
	if _, ok := ParsePriority("urgent"); ok {
		t.Error("ParsePriority accepted an unknown name")
	}
}

package policies

import "testing"

// TestOutcomeSet: With adds, Has finds only what was added, and outcomes
// past the 16 a set holds are ignored rather than wrapping onto others.
func TestOutcomeSet(t *testing.T) {
	s := NewOutcomeSet(Error, Timeout)
	for o := Outcome(0); o < 20; o++ {
		if want := o == Error || o == Timeout; s.Has(o) != want {
			t.Errorf("Has(%d) = %v, want %v", o, s.Has(o), want)
		}
	}
	if got := s.With(16).With(40); got != s {
		t.Errorf("With(16), With(40) changed the set: %b, want %b", got, s)
	}
	if NewOutcomeSet() != 0 {
		t.Error("the empty set is not zero")
	}
}

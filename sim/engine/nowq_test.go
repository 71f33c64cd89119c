package engine

import (
	"slices"
	"testing"
)

// TestNowQueueOrder checks the now-queue against the rule it must keep:
// an event scheduled for the current instant fires after every event
// already pending for that instant (in the heap or on a lane) and before
// those scheduled after it, and a cancelled one never fires. It steps
// with Step, so that fireNext's path is checked as well as Run's.
func TestNowQueueOrder(t *testing.T) {
	s := New(1)
	lane, _ := s.NewLane(5)
	var got []string
	var ids = map[string]EventID{}
	var h HandlerFunc
	h = func(now Time, arg any) {
		name := arg.(string)
		got = append(got, name)
		switch name {
		case "a": // at 5, before b (heap) and c (lane), all at 5
			ids["a1"], _ = s.After(0, h, "a1")
			ids["a2"], _ = s.At(now, h, "a2")
			ids["a3"], _ = s.After(0, h, "a3")
			s.Cancel(ids["a2"])
		case "a1":
			ids["a1x"], _ = s.At(now, h, "a1x") // after a3
			ids["a1y"], _ = s.After(1, h, "a1y")
		}
	}
	ids["a"], _ = s.At(5, h, "a")
	ids["b"], _ = s.At(5, h, "b")
	ids["c"] = lane.Schedule(h, "c")
	ids["d"], _ = s.At(6, h, "d")
	for s.Step() {
	}
	want := []string{"a", "b", "c", "a1", "a3", "a1x", "d", "a1y"} // d was scheduled for 6 before a1y
	if !slices.Equal(got, want) {
		t.Fatalf("fired %v, want %v", got, want)
	}
	if s.Pending() != 0 {
		t.Fatalf("Pending() = %d after the run, want 0", s.Pending())
	}
}

// TestNowQueueRunUntil: RunUntil stops at its limit with now-queue events
// pending only when a handler stopped it, and resumes them in order.
func TestNowQueueRunUntil(t *testing.T) {
	s := New(1)
	var got []int
	var h HandlerFunc
	h = func(now Time, arg any) {
		n := arg.(int)
		got = append(got, n)
		if n < 3 {
			s.After(0, h, n+1)
		}
		if n == 1 {
			s.Stop()
		}
	}
	s.At(10, h, 0)
	s.RunUntil(20)
	if !slices.Equal(got, []int{0, 1}) || s.Now() != 10 {
		t.Fatalf("after Stop: fired %v at %v, want [0 1] at 10", got, s.Now())
	}
	s.RunUntil(20)
	if !slices.Equal(got, []int{0, 1, 2, 3}) || s.Now() != 20 {
		t.Fatalf("resumed: fired %v at %v, want [0 1 2 3] at 20", got, s.Now())
	}
}

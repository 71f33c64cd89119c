package lifo

import (
	"testing"
	"time"
)

const never = time.Duration(1<<63 - 1)

// The whole story: FIFO while the queue drains; after it has not been
// empty for more than N, new requests get M = 5 ms and the queue serves
// LIFO; expired requests come out first, from the old end; once empty, it
// is FIFO again.
func TestAdaptiveQueueSteps(t *testing.T) {
	a, err := NewAdaptiveQueue[string](4, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	type step struct {
		at       time.Duration
		op       string // push or next
		v        string
		deadline time.Duration // push: the request's own deadline
		wantOK   bool          // push
		wantV    string        // next
		want     Result        // next
		wantMode Mode          // Mode after the step
		wantLen  int
	}
	steps := []step{
		{at: 0, op: "push", v: "a", deadline: never, wantOK: true, wantMode: FIFO, wantLen: 1},         // deadline 0 + N = 100 ms
		{at: 1 * ms, op: "push", v: "b", deadline: 50 * ms, wantOK: true, wantMode: FIFO, wantLen: 2},  // own deadline 50 ms < 101 ms
		{at: 2 * ms, op: "next", want: Deliver, wantV: "a", wantMode: FIFO, wantLen: 1},                // FIFO: oldest first
		{at: 60 * ms, op: "next", want: Expired, wantV: "b", wantMode: FIFO, wantLen: 0},               // past its own deadline
		{at: 60 * ms, op: "next", want: Empty, wantMode: FIFO, wantLen: 0},                             // empty at 60 ms
		{at: 70 * ms, op: "push", v: "c", deadline: never, wantOK: true, wantMode: FIFO, wantLen: 1},   // deadline 170 ms
		{at: 80 * ms, op: "push", v: "d", deadline: never, wantOK: true, wantMode: FIFO, wantLen: 2},   // deadline 180 ms
		{at: 171 * ms, op: "push", v: "e", deadline: never, wantOK: true, wantMode: LIFO, wantLen: 3},  // not empty since 70 ms: M, deadline 176 ms
		{at: 172 * ms, op: "push", v: "f", deadline: never, wantOK: true, wantMode: LIFO, wantLen: 4},  // deadline 177 ms
		{at: 172 * ms, op: "push", v: "g", deadline: never, wantOK: false, wantMode: LIFO, wantLen: 4}, // full
		{at: 173 * ms, op: "next", want: Expired, wantV: "c", wantMode: LIFO, wantLen: 3},              // c expired at 170 ms: old end first
		{at: 173 * ms, op: "next", want: Deliver, wantV: "f", wantMode: LIFO, wantLen: 2},              // then LIFO: newest
		{at: 176 * ms, op: "next", want: Expired, wantV: "e", wantMode: LIFO, wantLen: 1},              // LIFO pops e, whose M deadline (176 ms) has come
		{at: 176 * ms, op: "next", want: Deliver, wantV: "d", wantMode: FIFO, wantLen: 0},              // d lives until 180 ms; served LIFO; queue now empty
		{at: 177 * ms, op: "push", v: "h", deadline: never, wantOK: true, wantMode: FIFO, wantLen: 1},
		{at: 178 * ms, op: "push", v: "i", deadline: never, wantOK: true, wantMode: FIFO, wantLen: 2},
		{at: 179 * ms, op: "next", want: Deliver, wantV: "h", wantMode: FIFO, wantLen: 1}, // FIFO again
	}
	for i, s := range steps {
		switch s.op {
		case "push":
			if ok := a.Push(s.at, s.v, s.deadline); ok != s.wantOK {
				t.Errorf("step %d at %v: Push %q ok %v, want %v", i, s.at, s.v, ok, s.wantOK)
			}
		case "next":
			e, r := a.Next(s.at)
			if r != s.want || e.Value != s.wantV {
				t.Errorf("step %d at %v: Next %v %q, want %v %q", i, s.at, r, e.Value, s.want, s.wantV)
			}
		}
		if m := a.Mode(s.at); m != s.wantMode {
			t.Errorf("step %d at %v: Mode %v, want %v", i, s.at, m, s.wantMode)
		}
		if a.Len() != s.wantLen {
			t.Errorf("step %d at %v: Len %d, want %d", i, s.at, a.Len(), s.wantLen)
		}
	}
	want := Stats{Pushed: 8, Full: 1, Expired: 3, DeliveredFIFO: 2, DeliveredLIFO: 2}
	if got := a.Stats(); got != want {
		t.Errorf("Stats %+v, want %+v", got, want)
	}
}

func TestAdaptiveQueueWithoutControlledDelay(t *testing.T) {
	cfg := DefaultConfig()
	cfg.ControlledDelay = false
	a, _ := NewAdaptiveQueue[int](8, cfg)
	a.Push(0, 1, never)
	a.Push(0, 2, 300*ms)
	if e, _ := a.Queue().Front(); e.Deadline != never {
		t.Errorf("deadline %v without controlled delay, want none", e.Deadline)
	}
	// Never empty since 0: LIFO. The newest (2) is past its own deadline.
	if e, r := a.Next(time.Second); r != Expired || e.Value != 2 {
		t.Errorf("Next at 1 s: %v %d, want expired 2", r, e.Value)
	}
	if e, r := a.Next(time.Second); r != Deliver || e.Value != 1 {
		t.Errorf("Next at 1 s: %v %d, want deliver 1", r, e.Value)
	}
}

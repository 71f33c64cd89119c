package lifo

import (
	"errors"
	"testing"
	"time"
)

const ms = time.Millisecond

func TestQueueSteps(t *testing.T) {
	q, err := NewQueue[int](3)
	if err != nil {
		t.Fatal(err)
	}
	e := func(v int, deadline time.Duration) Entry[int] {
		return Entry[int]{Value: v, EnqueuedAt: time.Duration(v) * ms, Deadline: deadline}
	}
	steps := []struct {
		op      string // push, front, back, popfront, popback, expired
		arg     Entry[int]
		now     time.Duration
		wantOK  bool
		wantV   int
		wantLen int
	}{
		{op: "popfront", wantOK: false, wantLen: 0},
		{op: "popback", wantOK: false, wantLen: 0},
		{op: "push", arg: e(1, 10*ms), wantOK: true, wantLen: 1},
		{op: "push", arg: e(2, 20*ms), wantOK: true, wantLen: 2},
		{op: "push", arg: e(3, 30*ms), wantOK: true, wantLen: 3},
		{op: "push", arg: e(4, 40*ms), wantOK: false, wantLen: 3}, // full
		{op: "front", wantOK: true, wantV: 1, wantLen: 3},
		{op: "back", wantOK: true, wantV: 3, wantLen: 3},
		{op: "popfront", wantOK: true, wantV: 1, wantLen: 2},
		{op: "push", arg: e(4, 5*ms), wantOK: true, wantLen: 3}, // wraps around
		{op: "popback", wantOK: true, wantV: 4, wantLen: 2},
		{op: "push", arg: e(5, 50*ms), wantOK: true, wantLen: 3},
		{op: "expired", now: 19 * ms, wantOK: false, wantLen: 3}, // front (2) lives until 20 ms
		{op: "expired", now: 20 * ms, wantOK: true, wantV: 2, wantLen: 2},
		{op: "expired", now: 20 * ms, wantOK: false, wantLen: 2},
		{op: "expired", now: 35 * ms, wantOK: true, wantV: 3, wantLen: 1},
		{op: "popback", wantOK: true, wantV: 5, wantLen: 0},
		{op: "front", wantOK: false, wantLen: 0},
		{op: "back", wantOK: false, wantLen: 0},
		{op: "expired", now: time.Hour, wantOK: false, wantLen: 0},
	}
	for i, s := range steps {
		var got Entry[int]
		var ok bool
		switch s.op {
		case "push":
			ok = q.PushBack(s.arg)
		case "front":
			got, ok = q.Front()
		case "back":
			got, ok = q.Back()
		case "popfront":
			got, ok = q.PopFront()
		case "popback":
			got, ok = q.PopBack()
		case "expired":
			got, ok = q.PopExpired(s.now)
		}
		if ok != s.wantOK {
			t.Errorf("step %d %s: ok %v, want %v", i, s.op, ok, s.wantOK)
		}
		if ok && s.op != "push" && got.Value != s.wantV {
			t.Errorf("step %d %s: value %d, want %d", i, s.op, got.Value, s.wantV)
		}
		if q.Len() != s.wantLen {
			t.Errorf("step %d %s: Len %d, want %d", i, s.op, q.Len(), s.wantLen)
		}
	}
	if q.Cap() != 3 {
		t.Errorf("Cap %d", q.Cap())
	}
}

func TestQueueAt(t *testing.T) {
	q, _ := NewQueue[string](2)
	q.PushBack(Entry[string]{Value: "a"})
	q.PopFront()
	q.PushBack(Entry[string]{Value: "b"})
	q.PushBack(Entry[string]{Value: "c"}) // wrapped
	if q.At(0).Value != "b" || q.At(1).Value != "c" {
		t.Errorf("At: %q %q", q.At(0).Value, q.At(1).Value)
	}
	defer func() {
		if recover() == nil {
			t.Error("At out of range did not panic")
		}
	}()
	q.At(2)
}

func TestQueueReleasesReferences(t *testing.T) {
	q, _ := NewQueue[*int](2)
	x := 1
	q.PushBack(Entry[*int]{Value: &x})
	q.PopFront()
	q.PushBack(Entry[*int]{Value: &x})
	q.PopBack()
	for i, e := range q.buf {
		if e.Value != nil {
			t.Errorf("slot %d still holds a pointer", i)
		}
	}
}

func TestNewQueueError(t *testing.T) {
	if _, err := NewQueue[int](0); !errors.Is(err, ErrInvalidConfig) {
		t.Errorf("capacity 0: error %v, want ErrInvalidConfig", err)
	}
}

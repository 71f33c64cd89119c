package budget

import (
	"errors"
	"math"
	"testing"
	"time"
)

const (
	ms = time.Millisecond
	s  = time.Second
)

func mustBucket(t testing.TB, c Config) *Bucket {
	t.Helper()
	b, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBucketSteps drives a small bucket (Capacity 2, Ratio 0.5, reserve
// 1 retry per second) through every transition at made-up instants.
func TestBucketSteps(t *testing.T) {
	b := mustBucket(t, Config{Ratio: 0.5, Capacity: 2, MinRetriesPerSec: 1})
	const (
		success = "success"
		retry   = "retry"
	)
	steps := []struct {
		at      time.Duration
		action  string
		ok      bool // TryRetry's answer; ignored for success
		tokens  float64
		reserve float64
	}{
		{0, retry, true, 1, 1},               // from the full bucket
		{0, retry, true, 0, 1},               // bucket now empty
		{0, retry, true, 0, 0},               // paid by the reserve
		{0, retry, false, 0, 0},              // nothing left
		{500 * ms, retry, false, 0, 0.5},     // reserve half refilled: 0.5 < 1
		{500 * ms, success, false, 0.5, 0.5}, // deposit 0.5
		{700 * ms, success, false, 1, 0.7},   // deposit 0.5; reserve +0.2
		{700 * ms, retry, true, 0, 0.7},      // bucket first
		{1000 * ms, retry, true, 0, 0},       // reserve reached 1.0 exactly
		{1000 * ms, success, false, 0.5, 0},
		{1000 * ms, success, false, 1, 0},
		{1000 * ms, success, false, 1.5, 0},
		{1000 * ms, success, false, 2, 0},
		{1000 * ms, success, false, 2, 0}, // capped at Capacity
		{900 * ms, retry, true, 1, 0},     // an earlier instant counts as 1000 ms
		{10 * s, retry, true, 0, 1},       // reserve full again, capped at 1
		{10 * s, retry, true, 0, 0},
	}
	for i, st := range steps {
		var ok bool
		if st.action == success {
			b.RecordSuccess(st.at)
		} else {
			ok = b.TryRetry(st.at)
			if ok != st.ok {
				t.Errorf("step %d: TryRetry(%v) = %v, want %v", i, st.at, ok, st.ok)
			}
		}
		if b.Tokens() != st.tokens || b.Reserve(st.at) != st.reserve {
			t.Errorf("step %d (%s at %v): tokens %v reserve %v, want %v %v",
				i, st.action, st.at, b.Tokens(), b.Reserve(st.at), st.tokens, st.reserve)
		}
	}
	want := Stats{Successes: 7, Allowed: 8, FromReserve: 3, Denied: 2}
	if got := b.Stats(); got != want {
		t.Errorf("Stats = %+v, want %+v", got, want)
	}
}

// TestDepositsExact checks that ten deposits of 0.1 make exactly one token,
// which they would not in float64 arithmetic.
func TestDepositsExact(t *testing.T) {
	b := mustBucket(t, Config{Ratio: 0.1, Capacity: 1, MinRetriesPerSec: 0})
	if !b.TryRetry(0) || b.TryRetry(0) {
		t.Fatal("want exactly one retry from a full bucket of 1")
	}
	for range 10 {
		b.RecordSuccess(0)
	}
	if b.Tokens() != 1 || !b.TryRetry(0) {
		t.Errorf("after 10 deposits of 0.1: tokens %v", b.Tokens())
	}
}

// TestReserveExactUnderFineCalls checks that the reserve's refill loses no
// fraction when calls are much closer together than one micro-token's worth
// of time (1 us at 1 retry/s).
func TestReserveExactUnderFineCalls(t *testing.T) {
	b := mustBucket(t, Config{Ratio: 0, Capacity: 1, MinRetriesPerSec: 1})
	b.TryRetry(0) // empty the bucket
	b.TryRetry(0) // and the reserve
	for now := time.Duration(0); now < 3*ms; now += 300 {
		b.RecordSuccess(now) // Ratio 0: only advances time
	}
	b.RecordSuccess(3 * ms)
	if b.Reserve(3*ms) != 0.003 {
		t.Errorf("reserve after 3 ms of 300 ns steps = %v, want 0.003", b.Reserve(3*ms))
	}
}

func TestReserveFastRate(t *testing.T) {
	b := mustBucket(t, Config{Ratio: 0, Capacity: 1, MinRetriesPerSec: 10})
	b.TryRetry(0)
	n := 0
	for b.TryRetry(0) {
		n++
	}
	if n != 10 {
		t.Fatalf("reserve burst = %d retries, want 10", n)
	}
	if b.TryRetry(99 * ms) {
		t.Error("0.99 tokens must not pay for a retry")
	}
	if !b.TryRetry(100 * ms) {
		t.Error("1 token after 100 ms at 10/s")
	}
}

func TestConfigValidate(t *testing.T) {
	bad := []Config{
		{},
		{Ratio: -0.1, Capacity: 100, MinRetriesPerSec: 1},
		{Ratio: 1e-9, Capacity: 100, MinRetriesPerSec: 1},
		{Ratio: math.NaN(), Capacity: 100, MinRetriesPerSec: 1},
		{Ratio: MaxRatio * 2, Capacity: 100, MinRetriesPerSec: 1},
		{Ratio: 0.1, Capacity: 0.5, MinRetriesPerSec: 1},
		{Ratio: 0.1, Capacity: math.Inf(1), MinRetriesPerSec: 1},
		{Ratio: 0.1, Capacity: 100, MinRetriesPerSec: -1},
		{Ratio: 0.1, Capacity: 100, MinRetriesPerSec: MaxMinRetriesPerSec + 1},
	}
	for _, c := range bad {
		if _, err := New(c); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("New(%+v) error = %v, want ErrInvalidConfig", c, err)
		}
	}
	good := []Config{
		DefaultConfig(),
		{Ratio: 0, Capacity: 1, MinRetriesPerSec: 0},
		{Ratio: MaxRatio, Capacity: MaxCapacity, MinRetriesPerSec: MaxMinRetriesPerSec},
	}
	for _, c := range good {
		if _, err := New(c); err != nil {
			t.Errorf("New(%+v): %v", c, err)
		}
	}
}

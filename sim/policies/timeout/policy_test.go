package timeout

import (
	"errors"
	"math"
	"testing"
	"time"
)

const ms = time.Millisecond

func TestPolicySteps(t *testing.T) {
	p, err := New(Config{Attempt: 300 * ms})
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		start, now, deadline time.Duration
		effective, expiresAt time.Duration
		expired              bool
	}{
		{0, 0, 0, 300 * ms, 300 * ms, false}, // no deadline
		{0, 299 * ms, 0, 300 * ms, 300 * ms, false},
		{0, 300 * ms, 0, 300 * ms, 300 * ms, true},                // fires at exactly start+timeout
		{100 * ms, 350 * ms, 800 * ms, 300 * ms, 400 * ms, false}, // deadline far away
		{600 * ms, 700 * ms, 800 * ms, 200 * ms, 800 * ms, false}, // the deadline cuts it short
		{600 * ms, 800 * ms, 800 * ms, 200 * ms, 800 * ms, true},
		{800 * ms, 800 * ms, 800 * ms, 0, 800 * ms, true}, // nothing left: do not send
		{900 * ms, 900 * ms, 800 * ms, 0, 900 * ms, true},
		{-Forever, 0, Forever, 300 * ms, -Forever + 300*ms, true}, // no overflow
	}
	for i, s := range steps {
		if got := p.Effective(s.start, s.deadline); got != s.effective {
			t.Errorf("step %d: Effective(%v, %v) = %v, want %v", i, s.start, s.deadline, got, s.effective)
		}
		if got := p.ExpiresAt(s.start, s.deadline); got != s.expiresAt {
			t.Errorf("step %d: ExpiresAt = %v, want %v", i, got, s.expiresAt)
		}
		if got := p.Expired(s.start, s.now, s.deadline); got != s.expired {
			t.Errorf("step %d: Expired at %v = %v, want %v", i, s.now, got, s.expired)
		}
	}
	if p.Attempt() != 300*ms {
		t.Error("Attempt changed")
	}
	big, _ := New(Config{Attempt: Forever})
	if got := big.ExpiresAt(time.Hour, 0); got != Forever {
		t.Errorf("ExpiresAt must saturate, got %v", got)
	}
}

func TestConfigValidate(t *testing.T) {
	for _, c := range []Config{{}, {Attempt: -1}} {
		if _, err := New(c); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("New(%+v) error = %v, want ErrInvalidConfig", c, err)
		}
	}
	if p, err := New(DefaultConfig()); err != nil || p.Attempt() != time.Second {
		t.Errorf("DefaultConfig: %v, %v", p.Attempt(), err)
	}
}

// TestEffectiveMatchesReference checks Effective, which takes the
// unsigned minimum where deadline-start overflows, against the former
// explicit overflow test on instants around 0 and the int64 limits.
func TestEffectiveMatchesReference(t *testing.T) {
	vals := []time.Duration{math.MinInt64, math.MinInt64 + 1, -1e18, -5, -1, 0, 1, 5, 300 * ms, 1e18, Forever - 1, Forever}
	for _, attempt := range []time.Duration{1, 300 * ms, Forever} {
		p, err := New(Config{Attempt: attempt})
		if err != nil {
			t.Fatal(err)
		}
		ref := func(start, deadline time.Duration) time.Duration {
			switch {
			case deadline == 0:
				return attempt
			case deadline <= start:
				return 0
			case start < 0 && deadline > Forever+start:
				return attempt
			}
			return min(attempt, deadline-start)
		}
		for _, start := range vals {
			for _, deadline := range vals {
				if got, want := p.Effective(start, deadline), ref(start, deadline); got != want {
					t.Errorf("attempt %v: Effective(%d, %d) = %v, want %v", attempt, start, deadline, got, want)
				}
			}
		}
	}
}

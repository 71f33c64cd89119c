package timeout

import (
	"errors"
	"math"
	"testing"
	"time"
)

func TestRecommend(t *testing.T) {
	tests := []struct {
		s       Sizing
		p999    time.Duration
		want    time.Duration
		tooSlow bool
		err     bool
	}{
		{DefaultSizing(), 300 * ms, 450 * ms, false, false},
		{Sizing{Headroom: 0.2, MaxFactor: 3, Patience: 400 * ms}, 300 * ms, 360 * ms, false, false},
		{Sizing{Headroom: 0.5, MaxFactor: 3, Patience: 400 * ms}, 300 * ms, 400 * ms, false, false}, // capped
		{Sizing{Headroom: 0.5, MaxFactor: 3, Patience: 300 * ms}, 300 * ms, 300 * ms, true, true},
		{DefaultSizing(), 0, 0, false, true},
		{DefaultSizing(), Forever, Forever, false, false},
		{Sizing{Headroom: 0, MaxFactor: 3}, 300 * ms, 0, false, true},
		{Sizing{Headroom: 0.5, MaxFactor: 1.2}, 300 * ms, 0, false, true},
		{Sizing{Headroom: math.NaN(), MaxFactor: 3}, 300 * ms, 0, false, true},
		{Sizing{Headroom: 0.5, MaxFactor: 3, Patience: -1}, 300 * ms, 0, false, true},
	}
	for i, tt := range tests {
		got, err := tt.s.Recommend(tt.p999)
		if got != tt.want || (err != nil) != tt.err || errors.Is(err, ErrTooSlow) != tt.tooSlow {
			t.Errorf("case %d: Recommend(%v) = %v, %v; want %v (err %v, too slow %v)", i, tt.p999, got, err, tt.want, tt.err, tt.tooSlow)
		}
	}
}

func TestAssess(t *testing.T) {
	s := DefaultSizing()
	s.Patience = 800 * ms
	// The 10 s case is the example of «Устойчивость: circuit breaker,
	// retry, bulkhead, backpressure, деградация», section 2.
	tests := []struct {
		timeout, p999 time.Duration
		ok            bool
	}{
		{450 * ms, 300 * ms, true},
		{10 * time.Second, 300 * ms, false}, // section 2's example: holds dead slots for 10 s
		{900 * ms, 300 * ms, false},         // 3 x p99.9 allowed, but above the 800 ms patience
		{300 * ms, 300 * ms, false},         // cuts healthy calls
		{0, 300 * ms, false},
		{450 * ms, 0, false},
	}
	for _, tt := range tests {
		if err := s.Assess(tt.timeout, tt.p999); (err == nil) != tt.ok {
			t.Errorf("Assess(%v, %v) = %v, want ok %v", tt.timeout, tt.p999, err, tt.ok)
		}
	}
	if err := (Sizing{}).Assess(time.Second, ms); !errors.Is(err, ErrInvalidConfig) {
		t.Errorf("zero Sizing must be invalid, got %v", err)
	}
}

func TestDeadSlots(t *testing.T) {
	tests := []struct {
		rate float64
		hold time.Duration
		want float64
	}{
		{1000, 20 * ms, 20},           // checkout, healthy recommendations
		{1000, 5 * time.Second, 5000}, // recommendations slowed to 5 s
		{1000, 10 * time.Second, 10000},
		{0, time.Second, 0},
	}
	for _, tt := range tests {
		if got := DeadSlots(tt.rate, tt.hold); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("DeadSlots(%v, %v) = %v, want %v", tt.rate, tt.hold, got, tt.want)
		}
	}
}

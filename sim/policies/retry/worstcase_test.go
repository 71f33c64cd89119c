package retry

import (
	"math"
	"testing"
	"time"
)

func TestWorstCase(t *testing.T) {
	tests := []struct {
		k            int
		timeout, cap time.Duration
		want         time.Duration
	}{
		{3, 100 * ms, 2 * time.Second, 6300 * ms}, // 3*0.1 + 3*2
		{2, 300 * ms, 50 * ms, 700 * ms},
		{1, 1 * time.Second, 0, 1 * time.Second},
		{0, 1 * time.Second, 1, 0},
		{-1, 1 * time.Second, 1, 0},
		{3, -1, -1, 0},
		{100, math.MaxInt64 / 10, 0, math.MaxInt64}, // saturates
	}
	for _, tt := range tests {
		if got := WorstCase(tt.k, tt.timeout, tt.cap); got != tt.want {
			t.Errorf("WorstCase(%d, %v, %v) = %v, want %v", tt.k, tt.timeout, tt.cap, got, tt.want)
		}
	}
}

func TestPolicyFits(t *testing.T) {
	tests := []struct {
		backoff Backoff
		timeout time.Duration
		budget  time.Duration
		worst   time.Duration
		fits    bool
	}{
		// Source defaults with a 300 ms attempt timeout: 3*0.3 + 3*2 = 6.9 s,
		// far beyond an 800 ms user deadline.
		{BackoffFullJitter, 300 * ms, 800 * ms, 6900 * ms, false},
		{BackoffFullJitter, 300 * ms, 6900 * ms, 6900 * ms, true},
		{BackoffConstant, 200 * ms, 800 * ms, 750 * ms, true}, // 3*0.2 + 3*0.05
		{BackoffNone, 300 * ms, 800 * ms, 900 * ms, false},
	}
	for _, tt := range tests {
		cfg := DefaultConfig()
		cfg.Backoff, cfg.AttemptTimeout = tt.backoff, tt.timeout
		p := mustNew(t, cfg)
		if got := p.WorstCase(); got != tt.worst {
			t.Errorf("%v/%v: WorstCase = %v, want %v", tt.backoff, tt.timeout, got, tt.worst)
		}
		if err := p.Fits(tt.budget); (err == nil) != tt.fits {
			t.Errorf("%v/%v: Fits(%v) = %v, want fits %v", tt.backoff, tt.timeout, tt.budget, err, tt.fits)
		}
	}
}

func TestAmplification(t *testing.T) {
	tests := []struct {
		layers []int
		want   int64
	}{
		{[]int{3, 3, 3}, 27},
		{[]int{3, 1, 1}, 3},
		{nil, 1},
		{[]int{0, 2}, 2},
		{[]int{math.MaxInt, math.MaxInt}, math.MaxInt64},
	}
	for _, tt := range tests {
		if got := Amplification(tt.layers...); got != tt.want {
			t.Errorf("Amplification(%v) = %d, want %d", tt.layers, got, tt.want)
		}
	}
}

package retry

import (
	"math"
	"testing"
	"time"
)

func TestDelayFormulas(t *testing.T) {
	tests := []struct {
		b       Backoff
		retries int32
		prev    time.Duration
		u       float64
		want    time.Duration
	}{
		{BackoffNone, 0, 0, 0.5, 0},
		{BackoffNone, 5, 0, 0.5, 0},
		{BackoffConstant, 0, 0, 0.5, 50 * ms},
		{BackoffConstant, 7, 0, 0.5, 50 * ms},
		{BackoffExponential, 0, 0, 0.5, 50 * ms},
		{BackoffExponential, 1, 0, 0.5, 100 * ms},
		{BackoffExponential, 5, 0, 0.5, 1600 * ms},
		{BackoffExponential, 6, 0, 0.5, 2000 * ms},  // 3200 capped at 2 s
		{BackoffExponential, 90, 0, 0.5, 2000 * ms}, // no overflow
		{BackoffFullJitter, 0, 0, 0, 0},
		{BackoffFullJitter, 0, 0, 0.5, 25 * ms},
		{BackoffFullJitter, 3, 0, 0.25, 100 * ms},  // 0.25 * 400
		{BackoffFullJitter, 10, 0, 0.5, 1000 * ms}, // 0.5 * cap
		{BackoffEqualJitter, 0, 0, 0, 25 * ms},
		{BackoffEqualJitter, 0, 0, 0.5, 37500 * time.Microsecond},
		{BackoffEqualJitter, 10, 0, 0.5, 1500 * ms},
		{BackoffDecorrelatedJitter, 0, 0, 0, 50 * ms},           // uniform(50, 150) at 0
		{BackoffDecorrelatedJitter, 0, 0, 0.5, 100 * ms},        // prev0 = base
		{BackoffDecorrelatedJitter, 1, 100 * ms, 0.5, 175 * ms}, // uniform(50, 300)
		{BackoffDecorrelatedJitter, 4, 1900 * ms, 0.5, 2000 * ms},
		// u outside [0, 1) is clamped.
		{BackoffFullJitter, 0, 0, -1, 0},
		{BackoffFullJitter, 0, 0, math.NaN(), 0},
		{BackoffFullJitter, 0, 0, 7, 50*ms - 1},
	}
	for _, tt := range tests {
		cfg := DefaultConfig()
		cfg.Backoff = tt.b
		p := mustNew(t, cfg)
		got := p.Delay(Call{retries: tt.retries, prev: tt.prev}, tt.u)
		if got != tt.want {
			t.Errorf("%v retries %d prev %v u %v: delay %v, want %v", tt.b, tt.retries, tt.prev, tt.u, got, tt.want)
		}
	}
}

// TestJitterMeans checks each variant's mean delay over an even grid of u
// against its closed form, for retry n = 2 (e = min(2 s, 50 ms * 4) = 200 ms).
func TestJitterMeans(t *testing.T) {
	const n = 1000
	tests := []struct {
		b    Backoff
		want time.Duration
	}{
		{BackoffFullJitter, 100 * ms},  // e/2
		{BackoffEqualJitter, 150 * ms}, // 3e/4
		{BackoffExponential, 200 * ms}, // e
	}
	for _, tt := range tests {
		cfg := DefaultConfig()
		cfg.Backoff = tt.b
		p := mustNew(t, cfg)
		var sum time.Duration
		for i := range n {
			sum += p.Delay(Call{retries: 2}, (float64(i)+0.5)/n)
		}
		mean := sum / n
		// The midpoint grid integrates a linear function exactly, up to
		// the truncation of each delay to whole nanoseconds.
		if d := mean - tt.want; d < -time.Microsecond || d > time.Microsecond {
			t.Errorf("%v: mean delay %v, want %v", tt.b, mean, tt.want)
		}
	}
}

package promql

import (
	"math"
	"testing"
	"time"
)

// TestExtrapolatedRate: rate, increase and delta extrapolate as
// Prometheus 2.42's extrapolatedRate (worked by hand from its formula).
func TestExtrapolatedRate(t *testing.T) {
	nan := math.NaN()
	s := time.Second
	for _, c := range []struct {
		name string
		vals []float64 // every 10 s from 0
		expr string
		at   time.Duration
		want float64 // NaN: no sample
	}{
		// Samples at both edges of the closed window [0, 60]: no
		// extrapolation.
		{"edges", []float64{0, 10, 20, 30, 40, 50, 60}, "increase(x[1m])", 60 * s, 60},
		{"edges rate", []float64{0, 10, 20, 30, 40, 50, 60}, "rate(x[1m])", 60 * s, 1},
		// Window [5, 65] holds 10..60: 5 s extrapolated at each end
		// (within 1.1 average intervals), 50 * 60/50.
		{"both ends", []float64{0, 10, 20, 30, 40, 50, 60}, "increase(x[1m])", 65 * s, 60},
		// A reset (20 -> 5) adds the value before it back: 15 - 0 + 20.
		{"reset", []float64{0, 10, 20, 5, 15}, "increase(x[40s])", 40 * s, 35},
		// The first sample 20 s after the window's start, more than 1.1
		// intervals: extrapolated by half an interval, 20 * 25/20.
		{"far start", []float64{nan, nan, 100, 110, 120}, "increase(x[40s])", 40 * s, 25},
		// ... but a counter is not extrapolated below zero: 1 at 20 s
		// rising 1/s was 0 at 19 s, 1 s before the first sample.
		{"zero point", []float64{nan, nan, 1, 11, 21}, "increase(x[40s])", 40 * s, 21},
		// delta on a gauge: no reset handling, no zero point; [-10, 10]
		// extrapolated by 10 s at the start, -2 * 20/10.
		{"delta", []float64{5, 3}, "delta(x[20s])", 10 * s, -4},
		{"delta falling", []float64{5, 3, 10, 1}, "delta(x[30s])", 30 * s, -4},
		// One sample: no rate.
		{"one sample", []float64{nan, nan, 5}, "rate(x[15s])", 20 * s, nan},
		// irate: the last two samples; after a reset the last value.
		{"irate", []float64{0, 10, 30}, "irate(x[1m])", 20 * s, 2},
		{"irate reset", []float64{0, 30, 5}, "irate(x[1m])", 20 * s, 0.5},
	} {
		in := []Series{series(NewLabels(MetricName, "x"), 10*s, c.vals...)}
		got, ok := only(t, evalAt(t, in, c.expr, c.at))
		if math.IsNaN(c.want) {
			if ok {
				t.Errorf("%s: %s = %v, want no sample", c.name, c.expr, got)
			}
			continue
		}
		if !ok || math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: %s = %v (present %v), want %v", c.name, c.expr, got, ok, c.want)
		}
	}
}

// TestWindowsAndLookback: range windows are closed at both ends and the
// instant lookback is [t-5m, t], as in Prometheus 2.x (3.0 opens both
// on the left); a staleness marker hides a series at once.
func TestWindowsAndLookback(t *testing.T) {
	s := time.Second
	in := []Series{series(NewLabels(MetricName, "x"), 10*s, 1, 2, 3, 4, 5, 6, 7)}
	if got, _ := only(t, evalAt(t, in, "count_over_time(x[1m])", 60*s)); got != 7 {
		t.Errorf("count_over_time(x[1m]) at 60s = %v, want 7 (both ends)", got)
	}
	one := []Series{series(NewLabels(MetricName, "x"), s, 42)}
	if got, ok := only(t, evalAt(t, one, "x", 5*time.Minute)); !ok || got != 42 {
		t.Errorf("x at 5m = %v (present %v), want 42: the lookback includes t-5m", got, ok)
	}
	if _, ok := only(t, evalAt(t, one, "x", 5*time.Minute+time.Millisecond)); ok {
		t.Errorf("x at 5m1ms present: the lookback is 5m")
	}
	stale := []Series{{Labels: NewLabels(MetricName, "x"), Points: []Point{{0, 1}, {10 * s, staleNaN}}}}
	if _, ok := only(t, evalAt(t, stale, "x", 20*s)); ok {
		t.Errorf("x present after its staleness marker")
	}
	if got, _ := only(t, evalAt(t, stale, "count_over_time(x[1m])", 20*s)); got != 1 {
		t.Errorf("count_over_time over a staleness marker = %v, want 1 (markers are not samples)", got)
	}
}

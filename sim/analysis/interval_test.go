package analysis

import (
	"math"
	"testing"
)

func TestInterval(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	tests := []struct {
		name         string
		iv           Interval
		x            float64
		contains     bool
		excludesZero bool
		width        float64
	}{
		{"positive, x inside", Interval{1, 3}, 2, true, true, 2},
		{"positive, x at Lo", Interval{1, 3}, 1, true, true, 2},
		{"positive, x at Hi", Interval{1, 3}, 3, true, true, 2},
		{"positive, x below", Interval{1, 3}, 0.999, false, true, 2},
		{"positive, x above", Interval{1, 3}, 3.001, false, true, 2},
		{"negative", Interval{-3, -1}, -2, true, true, 2},
		{"straddles zero", Interval{-1, 2}, 0, true, false, 3},
		{"Lo is zero", Interval{0, 2}, 0, true, false, 2},
		{"Hi is zero", Interval{-2, 0}, 0, true, false, 2},
		{"degenerate at 5", Interval{5, 5}, 5, true, true, 0},
		{"degenerate at 0", Interval{0, 0}, 0, true, false, 0},
		{"unbounded", Interval{-inf, inf}, 1e308, true, false, inf},
		{"unbounded, x = +Inf", Interval{-inf, inf}, inf, true, false, inf},
		{"NaN bounds", Interval{nan, nan}, 0, false, false, nan},
		{"NaN x", Interval{-1, 1}, nan, false, false, 2},
	}
	for _, tt := range tests {
		if got := tt.iv.Contains(tt.x); got != tt.contains {
			t.Errorf("%s: %v.Contains(%v) = %v, want %v", tt.name, tt.iv, tt.x, got, tt.contains)
		}
		if got := tt.iv.ExcludesZero(); got != tt.excludesZero {
			t.Errorf("%s: %v.ExcludesZero() = %v, want %v", tt.name, tt.iv, got, tt.excludesZero)
		}
		if got := tt.iv.Width(); !near(got, tt.width, 0) {
			t.Errorf("%s: %v.Width() = %v, want %v", tt.name, tt.iv, got, tt.width)
		}
	}
}

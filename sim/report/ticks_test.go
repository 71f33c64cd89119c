package report

import (
	"math"
	"slices"
	"testing"
)

func TestNiceStep(t *testing.T) {
	tests := []struct {
		span   float64
		target int
		want   float64
	}{
		{3600, 8, 500}, {3600, 12, 250}, {100, 5, 20}, {1, 5, 0.2}, {0.03, 3, 0.01},
		{2500, 5, 500}, {7.4, 5, 1}, {0, 5, 1}, {math.NaN(), 5, 1}, {math.Inf(1), 5, 1},
	}
	for _, tt := range tests {
		if got := niceStep(tt.span, tt.target); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("niceStep(%v, %d) = %v, want %v", tt.span, tt.target, got, tt.want)
		}
	}
}

func TestFormatTick(t *testing.T) {
	tests := []struct {
		v, step, mag float64
		want         string
	}{
		{0, 500, 3000, "0"}, {1500, 500, 3000, "1500"}, {9000, 1000, 9000, "9000"},
		{10000, 2000, 10000, "10k"}, {4000, 2000, 10000, "4k"}, {0, 2000, 10000, "0"},
		{12500, 2500, 20000, "12.5k"}, {2.5e6, 5e5, 3e6, "2.5M"}, {5e5, 5e5, 3e6, "0.5M"},
		{-20000, 10000, 20000, "-20k"},
		{0.05, 0.05, 0.25, "0.05"}, {0.25, 0.25, 1, "0.25"}, {2.5, 0.5, 3, "2.5"}, {3, 0.5, 3, "3.0"},
		{1e-5, 1e-5, 5e-5, "1e-05"}, {3e11, 1e11, 5e11, "3e+11"},
	}
	for _, tt := range tests {
		if got := formatTick(tt.v, tt.step, tt.mag); got != tt.want {
			t.Errorf("formatTick(%v, %v, %v) = %q, want %q", tt.v, tt.step, tt.mag, got, tt.want)
		}
	}
}

func TestLinearTicks(t *testing.T) {
	got := linearTicks{target: 8, labels: true}.Ticks(0, 3600)
	var vals []float64
	var labels []string
	for _, k := range got {
		vals, labels = append(vals, k.Value), append(labels, k.Label)
	}
	if want := []float64{0, 500, 1000, 1500, 2000, 2500, 3000, 3500}; !slices.Equal(vals, want) {
		t.Errorf("values = %v, want %v", vals, want)
	}
	if labels[1] != "500" {
		t.Errorf("labels = %q", labels)
	}
	for _, k := range (linearTicks{target: 8}).Ticks(0, 3600) {
		if k.Label != "" {
			t.Fatalf("unlabelled ticker gave label %q", k.Label)
		}
	}
	if vals := majorTicks(linearTicks{target: 8}, 0, 3600); len(vals) != 8 {
		t.Errorf("majorTicks of an unlabelled ticker = %v, want the 8 labelled positions", vals)
	}
	// Negative zero is printed as 0.
	for _, k := range (linearTicks{target: 4, labels: true}).Ticks(-1, 1) {
		if k.Label == "-0.0" || k.Label == "-0" {
			t.Errorf("label %q", k.Label)
		}
	}
}

func TestLogTicks(t *testing.T) {
	got := logTicks{labels: true}.Ticks(10, 10000)
	var labels []string
	for _, k := range got {
		if k.Label != "" {
			labels = append(labels, k.Label)
		}
	}
	if want := []string{"10", "100", "1000", "10k"}; !slices.Equal(labels, want) {
		t.Errorf("labels = %q, want %q", labels, want)
	}
	if len(got) != 28 { // 9 per decade x 3 decades + 10000
		t.Errorf("%d ticks, want 28", len(got))
	}
	if got := (logTicks{}).Ticks(0, 10); got != nil {
		t.Errorf("Ticks(0, 10) = %v, want nil", got)
	}
}

func TestNiceRange(t *testing.T) {
	tests := []struct{ lo, hi, wlo, whi float64 }{
		{3, 47, 0, 50}, {990, 1010, 990, 1010}, {-3, 7, -4, 8}, {0, 0, 0, 1}, {5, 5, 4, 6},
	}
	for _, tt := range tests {
		lo, hi := niceRange(tt.lo, tt.hi, 5)
		if math.Abs(lo-tt.wlo) > 1e-9 || math.Abs(hi-tt.whi) > 1e-9 {
			t.Errorf("niceRange(%v, %v) = [%v, %v], want [%v, %v]", tt.lo, tt.hi, lo, hi, tt.wlo, tt.whi)
		}
	}
	if lo, hi := niceLogRange(20, 5000); lo != 10 || hi != 10000 {
		t.Errorf("niceLogRange(20, 5000) = [%v, %v], want [10, 10000]", lo, hi)
	}
}

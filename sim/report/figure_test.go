package report

import (
	"errors"
	"math"
	"testing"
)

func TestValidate(t *testing.T) {
	nan := math.NaN()
	line := func(x, y []float64) []Panel { return []Panel{{Lines: []Line{{Label: "l", X: x, Y: y}}}} }
	tests := []struct {
		name string
		f    Figure
		ok   bool
	}{
		{"minimal", Figure{Panels: []Panel{{}}}, true},
		{"nan is a gap", Figure{Panels: line([]float64{0, 1, 2}, []float64{1, nan, 3})}, true},
		{"repeated x", Figure{Panels: line([]float64{0, 1, 1, 2}, []float64{1, 2, 3, 4})}, true},
		{"empty line", Figure{Panels: line(nil, nil)}, true},
		{"min size", Figure{Panels: []Panel{{}}, Width: MinSize, Height: MinSize}, true},
		{"zero-length span", Figure{Panels: []Panel{{}}, Spans: []Span{{From: 5, To: 5}}}, true},
		{"log with positive min", Figure{Panels: []Panel{{LogY: true, YMin: new(0.1)}}}, true},

		{"no panels", Figure{}, false},
		{"too narrow", Figure{Panels: []Panel{{}}, Width: MinSize - 1}, false},
		{"too tall", Figure{Panels: []Panel{{}}, Height: MaxSize + 1}, false},
		{"negative size", Figure{Panels: []Panel{{}}, Width: -1}, false},
		{"length mismatch", Figure{Panels: line([]float64{0, 1}, []float64{1})}, false},
		{"x decreasing", Figure{Panels: line([]float64{0, 2, 1}, []float64{1, 2, 3})}, false},
		{"x nan", Figure{Panels: line([]float64{0, nan}, []float64{1, 2})}, false},
		{"x inf", Figure{Panels: line([]float64{0, math.Inf(1)}, []float64{1, 2})}, false},
		{"y inf", Figure{Panels: line([]float64{0, 1}, []float64{1, math.Inf(-1)})}, false},
		{"y beyond MaxAbs", Figure{Panels: line([]float64{0, 1}, []float64{1, -2 * MaxAbs})}, false},
		{"x beyond MaxAbs", Figure{Panels: line([]float64{0, 2 * MaxAbs}, []float64{1, 2})}, false},
		{"y at MaxAbs", Figure{Panels: line([]float64{0, 1}, []float64{-MaxAbs, MaxAbs})}, true},
		{"log min below MinLog", Figure{Panels: []Panel{{LogY: true, YMin: new(MinLog / 10)}}}, false},
		{"span reversed", Figure{Panels: []Panel{{}}, Spans: []Span{{From: 2, To: 1}}}, false},
		{"span nan", Figure{Panels: []Panel{{}}, Spans: []Span{{From: nan, To: 1}}}, false},
		{"state reversed", Figure{Panels: []Panel{{States: []StateBand{{From: 2, To: 1, State: "open"}}}}}, false},
		{"ymin >= ymax", Figure{Panels: []Panel{{YMin: new(1.0), YMax: new(1.0)}}}, false},
		{"ymax nan", Figure{Panels: []Panel{{YMax: new(nan)}}}, false},
		{"log with zero min", Figure{Panels: []Panel{{LogY: true, YMin: new(0.0)}}}, false},
		{"log with negative max", Figure{Panels: []Panel{{LogY: true, YMax: new(-1.0)}}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.f.Validate()
			if tt.ok && err != nil {
				t.Fatalf("Validate() = %v, want nil", err)
			}
			if !tt.ok && !errors.Is(err, ErrInvalid) {
				t.Fatalf("Validate() = %v, want an error wrapping ErrInvalid", err)
			}
		})
	}
}

func TestXRange(t *testing.T) {
	tests := []struct {
		name   string
		f      Figure
		lo, hi float64
	}{
		{"empty", Figure{Panels: []Panel{{}}}, 0, 1},
		{"one point", Figure{Panels: []Panel{{Lines: []Line{{X: []float64{5}, Y: []float64{1}}}}}}, 4, 6},
		{"lines spans states", Figure{
			Panels: []Panel{
				{Lines: []Line{{X: []float64{10, 20}, Y: []float64{1, 2}}}},
				{States: []StateBand{{From: 5, To: 15}}},
			},
			Spans: []Span{{From: 18, To: 30}},
		}, 5, 30},
	}
	for _, tt := range tests {
		lo, hi := tt.f.xRange()
		if lo != tt.lo || hi != tt.hi {
			t.Errorf("%s: xRange() = [%v, %v], want [%v, %v]", tt.name, lo, hi, tt.lo, tt.hi)
		}
	}
}

func TestYRange(t *testing.T) {
	x := []float64{0, 1, 2}
	tests := []struct {
		name   string
		p      Panel
		lo, hi float64
	}{
		{"no data", Panel{}, 0, 1},
		{"no data log", Panel{LogY: true}, 1, 10},
		{"widened to ticks", Panel{Lines: []Line{{X: x, Y: []float64{3, 47, 12}}}}, 0, 50},
		{"nan ignored", Panel{Lines: []Line{{X: x, Y: []float64{math.NaN(), 990, 1010}}}}, 990, 1010},
		{"ymin fixed", Panel{YMin: new(0.0), Lines: []Line{{X: x, Y: []float64{990, 1000, 1010}}}}, 0, 1200},
		{"all zero from zero", Panel{YMin: new(0.0), Lines: []Line{{X: x, Y: []float64{0, 0, 0}}}}, 0, 1},
		{"flat log", Panel{LogY: true, Lines: []Line{{X: x, Y: []float64{100, 100, 100}}}}, 100, 1000},
		{"both fixed", Panel{YMin: new(-1.0), YMax: new(1.0), Lines: []Line{{X: x, Y: []float64{-5, 0, 5}}}}, -1, 1},
		{"data below fixed min", Panel{YMin: new(10.0), Lines: []Line{{X: x, Y: []float64{1, 2, 3}}}}, 10, 20},
		{"log decades", Panel{LogY: true, Lines: []Line{{X: x, Y: []float64{0, 20, 5000}}}}, 10, 10000},
		{"flat", Panel{Lines: []Line{{X: x, Y: []float64{7, 7, 7}}}}, 6, 8},
	}
	for _, tt := range tests {
		lo, hi := tt.p.yRange(5)
		if math.Abs(lo-tt.lo) > 1e-9 || math.Abs(hi-tt.hi) > 1e-9 {
			t.Errorf("%s: yRange() = [%v, %v], want [%v, %v]", tt.name, lo, hi, tt.lo, tt.hi)
		}
	}
}

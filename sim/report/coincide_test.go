package report

import (
	"io"
	"testing"
)

// TestViewsCoincide: a line that a later one runs on top of is covered
// (and drawn with a band under it, so still visible); lines that meet
// only at the floor of the axis are not; a line at the floor of an axis
// scaled by a larger one spans too little of it to be read.
func TestViewsCoincide(t *testing.T) {
	x := []float64{0, 1, 2, 3, 4, 5}
	zero := 0.0
	p := Panel{YMin: &zero, Lines: []Line{
		{Label: "sent", X: x, Y: []float64{500, 510, 505, 495, 500, 502}},
		{Label: "degraded", X: x, Y: []float64{0, 0, 505, 495, 500, 0}},
		{Label: "failed", X: x, Y: []float64{0, 0, 0, 0, 0, 1}},
		{Label: "small", X: x, Y: []float64{1, 2, 3, 2, 1, 2}},
	}}
	v := p.Views()
	if len(v) != 4 {
		t.Fatalf("%d views, want 4", len(v))
	}
	if v[0].Covered != "degraded" || !v[0].Widened || !v[0].Visible() {
		t.Errorf("sent: %+v, want covered by degraded, drawn with a band, visible", v[0])
	}
	if v[1].Covered != "" || v[2].Covered != "" {
		t.Errorf("degraded %+v, failed %+v: covered, though they meet others only at the floor", v[1], v[2])
	}
	if v[3].Visible() || v[3].Moves() {
		t.Errorf("small: %+v, visible on a 0-600 axis", v[3])
	}
	if !v[1].Moves() || v[0].Moves() {
		t.Errorf("degraded %+v should move, sent %+v should not", v[1], v[0])
	}
	// Without the band, a covered line is hidden.
	h := v[0]
	h.Widened = false
	if h.Visible() {
		t.Error("a covered line without a band counts as visible")
	}
}

// TestBarClasses: a class per group, or the chart is invalid; with one,
// it renders.
func TestBarClasses(t *testing.T) {
	b := BarChart{Groups: []string{"base", "breaker"},
		Series:  []BarSeries{{Label: "goodput", Values: []float64{1, 2}}},
		Classes: []BarClass{{Label: "stays locked in", Tone: Bad}}}
	if err := b.Validate(); err == nil {
		t.Error("1 class for 2 groups is valid")
	}
	b.Classes = append(b.Classes, BarClass{Label: "recovers", Tone: Good})
	if err := b.Validate(); err != nil {
		t.Fatal(err)
	}
	if err := b.RenderPNG(io.Discard); err != nil {
		t.Fatal(err)
	}
	if classColour(Good, 0) == classColour(Bad, 0) || classColour(Neutral, 0) == classColour(Neutral, 1) {
		t.Error("classes share a colour")
	}
}

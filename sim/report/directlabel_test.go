package report

import (
	"image/color"
	"math"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// TestPlaceDirect: labels sit at their lines' ends when there is room,
// are pushed apart by exactly one row when they would overlap, keep the
// order of the ends, and stay inside [lo, hi].
func TestPlaceDirect(t *testing.T) {
	const h, lo, hi = 10, 0, 100
	tests := []struct {
		name       string
		want, got_ []vg.Length
	}{
		{"apart: unchanged", []vg.Length{80, 50, 20}, []vg.Length{80, 50, 20}},
		{"two at one height: split downwards", []vg.Length{50, 50}, []vg.Length{50, 40}},
		{"order of ends kept", []vg.Length{48, 52}, []vg.Length{42, 52}},
		{"at the top: pushed below hi", []vg.Length{100, 99, 98}, []vg.Length{95, 85, 75}},
		{"at the bottom: climb above lo", []vg.Length{0, 1, 2}, []vg.Length{5, 15, 25}},
		{"full column", []vg.Length{50, 50, 50, 50, 50, 50, 50, 50, 50, 50}, []vg.Length{95, 85, 75, 65, 55, 45, 35, 25, 15, 5}},
	}
	for _, tc := range tests {
		got := placeDirect(tc.want, h, lo, hi)
		for i := range got {
			if math.Abs(float64(got[i]-tc.got_[i])) > 1e-9 {
				t.Errorf("%s: placed %v, want %v", tc.name, got, tc.got_)
				break
			}
		}
		for i := range got {
			if got[i] < lo+h/2-1e-9 || got[i] > hi-h/2+1e-9 {
				t.Errorf("%s: label %d at %v outside [%v, %v]", tc.name, i, got[i], lo, hi)
			}
			for j := range got {
				if i != j && math.Abs(float64(got[i]-got[j])) < h-1e-9 {
					t.Errorf("%s: labels %d and %d overlap: %v", tc.name, i, j, got)
				}
			}
		}
	}
}

// TestDirectLabelsDrawn draws a panel of three lines ending at known
// values and finds the labels' text on a recording canvas: each is
// written beside the data area, no two overlap, they come in the order
// of the lines' last values, and an isolated label sits at its line's
// end. A panel too short for its labels keeps its legend.
func TestDirectLabelsDrawn(t *testing.T) {
	x := []float64{0, 1, 2, 3}
	f := Figure{Panels: []Panel{{YMin: new(0.0), YMax: new(100.0), Lines: []Line{
		{Label: "alpha", X: x, Y: []float64{10, 20, 30, 90}},
		{Label: "beta", X: x, Y: []float64{5, 5, 5, 50}},
		{Label: "gamma", X: x, Y: []float64{1, 2, 3, 51}},
		{Label: "delta", X: x, Y: []float64{9, 9, 9, 9}, Thin: true},
	}}}}
	ys, _ := labelHeights(t, f, 1200, 900)
	if _, ok := ys["delta"]; ok {
		t.Error("a thin line got a label")
	}
	if !(ys["alpha"] > ys["gamma"] && ys["gamma"] > ys["beta"]) {
		t.Errorf("labels at %v: want the order of the last values: alpha 90, gamma 51, beta 50", ys)
	}
	f.Panels[0].Lines[2].Y[3] = 49 // gamma now ends just below beta
	ys, area := labelHeights(t, f, 1200, 900)
	if !(ys["alpha"] > ys["beta"] && ys["beta"] > ys["gamma"]) {
		t.Errorf("labels at %v: want the order of the last values 90, 50, 49", ys)
	}
	rowH := newTheme(1200, 900, true).legend.Height("Mg")
	if d := ys["beta"] - ys["gamma"]; d < rowH*0.99 {
		t.Errorf("beta and gamma %v apart, less than a row (%v)", d, rowH)
	}
	// alpha is alone near 90: its label sits at the line's end, 90 % up.
	want := area.Min.Y + 0.9*(area.Max.Y-area.Min.Y)
	if math.Abs(float64(ys["alpha"]-want)) > float64(rowH) {
		t.Errorf("alpha's label at %v, its line ends at %v", ys["alpha"], want)
	}
	// Whether labels fit: ten need ten rows of the legend's height.
	th := newTheme(400, 200, true)
	it := &item{p: newPlot(&th), direct: make([]directLabel, 10), legend: newLegend(&th), dataH: 50}
	it.p.X.Min, it.p.X.Max = 0, 100
	for i := range 10 {
		it.legend.Add(string(rune('a'+i)), swatch{fill: color.Black})
		it.direct[i] = directLabel{x: 96, y: float64(i)}
	}
	if fitsDirect(it) {
		t.Error("ten labels fit in 50 pt: want the legend")
	}
	it.dataH = 10 * it.legend.TextStyle.Height("Mg")
	if !fitsDirect(it) {
		t.Error("ten labels in exactly their height: want direct labels")
	}
	it.direct[3].x = 94 // ends before the last 5 % of the axis
	if fitsDirect(it) {
		t.Error("a line ending at 94 of 100 gets a label at the right end")
	}
	it.direct[3].x = math.NaN() // no point at all
	if fitsDirect(it) {
		t.Error("a line with no point gets a label at the right end")
	}
	it.direct = it.direct[:1]
	if fitsDirect(it) {
		t.Error("one line: want its legend entry")
	}
}

// labelHeights draws f on a recording canvas and returns the baseline
// height of every text drawn right of the first panel's data area (the
// direct labels), by text, and that data area.
func labelHeights(t *testing.T, f Figure, w, h int) (map[string]vg.Length, vg.Rectangle) {
	t.Helper()
	rec := &recorder.Canvas{}
	c := draw.Canvas{Canvas: rec, Rectangle: vg.Rectangle{Max: vg.Point{X: px(w), Y: px(h)}}}
	areas, err := drawFigure(c, &f, w, h)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]vg.Length{}
	for _, a := range rec.Actions {
		if fs, ok := a.(*recorder.FillString); ok && fs.Point.X > areas[0].Max.X {
			out[fs.String] = fs.Point.Y
		}
	}
	return out, areas[0]
}

// TestThinColours: a thin line takes the colour of its panel's line with
// the same label (or the label's shared colour) and takes no palette
// colour from the other lines.
func TestThinColours(t *testing.T) {
	got := lineColours([]Panel{
		{Lines: []Line{{Label: "a", Thin: true}, {Label: "b"}, {Label: "a", Thin: true}, {Label: "a"}}},
		{Lines: []Line{{Label: "x"}, {Label: "a"}}},
		{Lines: []Line{{Label: "lonely", Thin: true}, {Label: "y"}}},
	})
	want := [][]color.RGBA{
		{okabeIto[0], okabeIto[1], okabeIto[0], okabeIto[0]}, // "a" is shared: colour 0
		{okabeIto[1], okabeIto[0]},
		{okabeIto[0], okabeIto[0]},
	}
	for i := range want {
		for j := range want[i] {
			if got[i][j] != want[i][j] {
				t.Errorf("panel %d line %d: %v, want %v", i, j, got[i][j], want[i][j])
			}
		}
	}
}

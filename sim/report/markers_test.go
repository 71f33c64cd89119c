package report

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"testing"
)

// countColour counts the pixels of exactly colour c in img.
func countColour(img image.Image, c color.RGBA) (n int) {
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if color.RGBAModel.Convert(img.At(x, y)).(color.RGBA) == c {
				n++
			}
		}
	}
	return n
}

func pngOf(t *testing.T, f Figure) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(render(t, func(b *bytes.Buffer) error { return RenderPNG(b, f) })))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// TestShortBandVisible: a half-open that lasts 0.3 s of a 100 s axis
// (about 2.5 px at 1200 px) is drawn at least the minimum width (5 px at
// the default size), on top of its neighbours; the band label is not
// needed for it to show.
func TestShortBandVisible(t *testing.T) {
	x := []float64{0, 100}
	f := Figure{Title: "short band", Panels: []Panel{{
		Lines: []Line{{Label: "y", X: x, Y: []float64{0, 1}}},
		States: []StateBand{{From: 0, To: 35.4, State: "open"}, {From: 35.4, To: 35.7, State: "half-open"},
			{From: 35.7, To: 100, State: "open"}},
	}}}
	yellow, _ := fixedStateColour("half-open")
	// The legend's swatch is yellow too: count the strip's columns only,
	// left of the legend column (the data area ends before x = 1000).
	img := pngOf(t, f)
	cols := map[int]bool{}
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for xx := r.Min.X; xx < 1000; xx++ {
			if color.RGBAModel.Convert(img.At(xx, y)).(color.RGBA) == yellow {
				cols[xx] = true
			}
		}
	}
	if len(cols) < 5 {
		t.Errorf("half-open band covers %d columns of the strip, want >= 5 (the minimum width)", len(cols))
	}
}

// TestMarkersDrawn: a marker draws its colour (a bad one vermillion, a
// good one green) and gets a legend entry; the same label twice gets one
// entry, and the same look.
func TestMarkersDrawn(t *testing.T) {
	x := []float64{0, 100}
	f := Figure{Title: "markers", Panels: []Panel{{
		Lines:   []Line{{Label: "y", X: x, Y: []float64{0, 0}}},
		Markers: []Marker{{At: 35.7, Label: "probe failed", Tone: Bad}, {At: 65.7, Label: "probe passed", Tone: Good}, {At: 65.8, Label: "probe passed", Tone: Good}},
	}}}
	img := pngOf(t, f)
	for _, c := range []color.RGBA{okabeIto[1], okabeIto[2]} {
		if n := countColour(img, c); n < 20 {
			t.Errorf("colour %v: %d pixels, want a glyph's worth (>= 20)", c, n)
		}
	}
	var s markerStyles
	a, b, c := s.style(f.Panels[0].Markers[0]), s.style(f.Panels[0].Markers[1]), s.style(f.Panels[0].Markers[2])
	if a.Color == b.Color || b != c {
		t.Errorf("styles: failed %v, passed %v and %v; want failed apart, passed alike", a, b, c)
	}
}

// TestMarkerValidate: a marker's instant must be finite.
func TestMarkerValidate(t *testing.T) {
	f := Figure{Panels: []Panel{{Markers: []Marker{{At: math.NaN(), Label: "x"}}}}}
	if err := f.Validate(); err == nil {
		t.Error("a NaN marker was accepted")
	}
}

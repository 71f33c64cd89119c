package report

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/ with the current output")

// goldenPNG compares the decoded pixels of got with testdata/name exactly.
// Pixels, not bytes: PNG bytes also depend on compress/flate, which may
// change between Go releases while the image stays the same.
func goldenPNG(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	gi, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		t.Fatal(err)
	}
	wi, err := png.Decode(bytes.NewReader(want))
	if err != nil {
		t.Fatal(err)
	}
	if n := diffPixels(gi, wi); n != 0 {
		out := filepath.Join(os.TempDir(), "ressim-report-got-"+name)
		os.WriteFile(out, got, 0o644)
		t.Fatalf("%s: %d pixels differ from the golden image; got written to %s (inspect it, then go test -update)", name, n, out)
	}
}

func diffPixels(a, b image.Image) int {
	if a.Bounds() != b.Bounds() {
		return math.MaxInt
	}
	n := 0
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if color.RGBAModel.Convert(a.At(x, y)) != color.RGBAModel.Convert(b.At(x, y)) {
				n++
			}
		}
	}
	return n
}

// goldenBytes compares got with testdata/name byte for byte.
func goldenBytes(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		out := filepath.Join(os.TempDir(), "ressim-report-got-"+name)
		os.WriteFile(out, got, 0o644)
		t.Fatalf("%s differs from the golden file; got written to %s (inspect it, then go test -update)", name, out)
	}
}

func render(t testing.TB, fn func(*bytes.Buffer) error) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := fn(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestGoldenTimeSeries(t *testing.T) {
	f := sampleFigure(400, 600, 400)
	goldenPNG(t, "timeseries.png", render(t, func(b *bytes.Buffer) error { return RenderPNG(b, f) }))
	goldenBytes(t, "timeseries.svg", render(t, func(b *bytes.Buffer) error { return RenderSVG(b, f) }))
}

// TestDeterministic renders the same figures twice: the bytes must match.
func TestDeterministic(t *testing.T) {
	figs := map[string]Figure{"sample": sampleFigure(1000, 800, 600), "bench": benchFigure()}
	for _, name := range []string{"sample", "bench"} {
		f := figs[name]
		p1 := render(t, func(b *bytes.Buffer) error { return RenderPNG(b, f) })
		s1 := render(t, func(b *bytes.Buffer) error { return RenderSVG(b, f) })
		p2 := render(t, func(b *bytes.Buffer) error { return RenderPNG(b, f) })
		s2 := render(t, func(b *bytes.Buffer) error { return RenderSVG(b, f) })
		if !bytes.Equal(p1, p2) {
			t.Errorf("%s: PNG differs between two renders", name)
		}
		if !bytes.Equal(s1, s2) {
			t.Errorf("%s: SVG differs between two renders", name)
		}
	}
}

func TestRenderSize(t *testing.T) {
	for _, sz := range [][2]int{{0, 0}, {600, 400}, {MinSize, MinSize}, {1920, 1080}} {
		f := sampleFigure(100, sz[0], sz[1])
		if sz[0] == MinSize { // a small figure fits a single panel
			f.Panels = f.Panels[:1]
			f.Panels[0].States = nil
		}
		b := render(t, func(b *bytes.Buffer) error { return RenderPNG(b, f) })
		cfg, err := png.DecodeConfig(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		w, h, _ := size(sz[0], sz[1])
		if cfg.Width != w || cfg.Height != h {
			t.Errorf("size %v: got %dx%d px, want %dx%d", sz, cfg.Width, cfg.Height, w, h)
		}
		svg := string(render(t, func(b *bytes.Buffer) error { return RenderSVG(b, f) }))
		if want := fmt.Sprintf(`width="%gpt" height="%gpt"`, float64(w)*0.75, float64(h)*0.75); !strings.Contains(svg, want) {
			t.Errorf("size %v: SVG header lacks %s", sz, want)
		}
	}
}

func TestRenderErrors(t *testing.T) {
	var b bytes.Buffer
	if err := RenderPNG(&b, Figure{}); !errors.Is(err, ErrInvalid) {
		t.Errorf("RenderPNG(no panels) = %v, want ErrInvalid", err)
	}
	if err := RenderSVG(&b, Figure{Panels: []Panel{{}}, Width: 10}); !errors.Is(err, ErrInvalid) {
		t.Errorf("RenderSVG(10 px wide) = %v, want ErrInvalid", err)
	}
	// Valid, but 12 panels cannot fit in 200 px.
	f := Figure{Width: MinSize, Height: MinSize, Panels: make([]Panel, 12)}
	if err := RenderPNG(&b, f); err == nil || errors.Is(err, ErrInvalid) {
		t.Errorf("RenderPNG(12 panels in 200 px) = %v, want a layout error", err)
	}
	if err := WriteFile(filepath.Join(t.TempDir(), "fig.jpg"), sampleFigure(10, 0, 0)); err == nil {
		t.Error("WriteFile(.jpg) = nil, want an error")
	}
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	f := sampleFigure(200, 600, 400)
	for _, name := range []string{"a.png", "b.SVG"} {
		p := filepath.Join(dir, name)
		if err := WriteFile(p, f); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if strings.HasSuffix(name, "png") {
			RenderPNG(&want, f)
		} else {
			RenderSVG(&want, f)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("%s: file differs from the rendered bytes", name)
		}
	}
	// An invalid figure leaves the previous file in place.
	p := filepath.Join(dir, "a.png")
	before, _ := os.ReadFile(p)
	if err := WriteFile(p, Figure{}); err == nil {
		t.Fatal("WriteFile(invalid) = nil")
	}
	after, _ := os.ReadFile(p)
	if !bytes.Equal(before, after) {
		t.Error("a failed WriteFile changed the existing file")
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Errorf("directory holds %d entries, want 2 (no temporary files left)", len(ents))
	}
}

// TestSpikeVisible draws one spike among 200 000 flat points and checks,
// on the pixels, that the line reaches the top of the panel.
func TestSpikeVisible(t *testing.T) {
	const n = 200_000
	x, y := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = float64(i) / 100
	}
	y[123_457] = 100
	f := Figure{Title: "spike", Width: 600, Height: 300, Panels: []Panel{{
		YMin: new(0.0), YMax: new(100.0), Lines: []Line{{Label: "y", X: x, Y: y}},
	}}}
	img, err := png.Decode(bytes.NewReader(render(t, func(b *bytes.Buffer) error { return RenderPNG(b, f) })))
	if err != nil {
		t.Fatal(err)
	}
	// Find the line colour (palette blue) and its highest pixel.
	blue := okabeIto[0]
	top, bottom := math.MaxInt, -1
	r := img.Bounds()
	for yy := r.Min.Y; yy < r.Max.Y; yy++ {
		for xx := r.Min.X; xx < r.Max.X; xx++ {
			if c := color.RGBAModel.Convert(img.At(xx, yy)).(color.RGBA); c == blue {
				top, bottom = min(top, yy), max(bottom, yy)
			}
		}
	}
	if bottom < 0 {
		t.Fatal("line colour not found")
	}
	if bottom-top < 150 {
		t.Errorf("line spans rows %d..%d; the spike to the top of the panel is missing", top, bottom)
	}
}

func TestLineColours(t *testing.T) {
	l := func(s ...string) (ls []Line) {
		for _, v := range s {
			ls = append(ls, Line{Label: v})
		}
		return ls
	}
	got := lineColours([]Panel{
		{Lines: l("a", "shared", "b")},
		{Lines: l("c", "shared", "d")},
		{Lines: l("e")},
	})
	want := [][]color.RGBA{
		{okabeIto[1], okabeIto[0], okabeIto[2]},
		{okabeIto[1], okabeIto[0], okabeIto[2]},
		{okabeIto[0]},
	}
	for i := range want {
		for j := range want[i] {
			if got[i][j] != want[i][j] {
				t.Errorf("panel %d line %d: %v, want %v", i, j, got[i][j], want[i][j])
			}
		}
	}
	// More lines than colours: the palette cycles, no panic.
	many := lineColours([]Panel{{Lines: l("1", "2", "3", "4", "5", "6", "7", "8", "9", "10")}})
	if many[0][8] != okabeIto[0] {
		t.Errorf("9th line %v, want the palette to cycle", many[0][8])
	}
}

// TestLayout checks, on the data areas the layout reports, that the panels
// share their left and right edges (one x axis), are stacked without
// overlap inside the image, and get equal heights when their legends fit.
func TestLayout(t *testing.T) {
	for _, sz := range [][2]int{{1200, 900}, {600, 400}, {1920, 1080}} {
		f := sampleFigure(100, sz[0], sz[1])
		c := vgimg.NewWith(vgimg.UseWH(px(sz[0]), px(sz[1])), vgimg.UseDPI(dpi))
		areas, err := drawFigure(draw.New(c), &f, sz[0], sz[1])
		if err != nil {
			t.Fatal(err)
		}
		if len(areas) != 4 { // 3 panels and one state strip
			t.Fatalf("%v: %d areas, want 4", sz, len(areas))
		}
		w, h := c.Size()
		var panelH []vg.Length
		for i, a := range areas {
			if a.Min.X != areas[0].Min.X || a.Max.X != areas[0].Max.X {
				t.Errorf("%v: area %d spans x [%v, %v], area 0 [%v, %v]", sz, i, a.Min.X, a.Max.X, areas[0].Min.X, areas[0].Max.X)
			}
			if a.Min.X < 0 || a.Max.X > w || a.Min.Y < 0 || a.Max.Y > h || a.Max.Y <= a.Min.Y {
				t.Errorf("%v: area %d %v outside the %vx%v canvas", sz, i, a, w, h)
			}
			if i > 0 && a.Max.Y > areas[i-1].Min.Y {
				t.Errorf("%v: area %d overlaps the one above", sz, i)
			}
			if i != 2 { // area 2 is the strip
				panelH = append(panelH, a.Max.Y-a.Min.Y)
			}
		}
		for _, ph := range panelH {
			if math.Abs(float64(ph-panelH[0])) > 1e-9 {
				t.Errorf("%v: panel heights %v, want equal", sz, panelH)
				break
			}
		}
	}
}

func TestShareHeights(t *testing.T) {
	tests := []struct {
		total      vg.Length
		needs, out []vg.Length
	}{
		{300, []vg.Length{10, 20, 30}, []vg.Length{100, 100, 100}},
		{300, []vg.Length{10, 150, 20}, []vg.Length{75, 150, 75}},
		{300, []vg.Length{140, 150, 20}, []vg.Length{100, 100, 100}}, // sum 310 > 300: equal
		{300, []vg.Length{140, 100, 20}, []vg.Length{140, 100, 60}},
		{300, []vg.Length{200, 200}, []vg.Length{150, 150}}, // needs exceed: equal
		{90, []vg.Length{0}, []vg.Length{90}},
	}
	for _, tt := range tests {
		got := shareHeights(tt.total, tt.needs)
		for i := range got {
			if math.Abs(float64(got[i]-tt.out[i])) > 1e-9 {
				t.Errorf("shareHeights(%v, %v) = %v, want %v", tt.total, tt.needs, got, tt.out)
				break
			}
		}
	}
}

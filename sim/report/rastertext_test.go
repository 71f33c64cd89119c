package report

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"math"
	"testing"

	"git.sr.ht/~sbinet/gg"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// drawTexts draws strings on dc at sizes, colours (one translucent),
// angles, sub-pixel positions and nested transforms, some partly off
// the image.
func drawTexts(dc draw.Canvas) {
	colours := []color.Color{color.Black, color.RGBA{200, 30, 30, 255}, color.RGBA{0, 0, 90, 128}}
	for i := range 60 {
		st := style(6+float64(i%9)*1.7, i%4 == 0, colours[i%len(colours)])
		st.Rotation = []float64{0, math.Pi / 2, -math.Pi / 2, 0.3}[i%4]
		pt := vg.Point{X: vg.Length(float64(i*13%300) + float64(i)/7), Y: vg.Length(float64(i*29%200) - 8 + float64(i)/11)}
		dc.Push()
		if i%5 == 0 {
			dc.Translate(vg.Point{X: 1.37, Y: -2.21})
			dc.Scale(1.25, 0.9)
		}
		dc.FillText(st, pt, fmt.Sprintf("Tick %d.5 s — ÅWAV fi%d", i, i*7))
		dc.Pop()
	}
}

// TestRasterTextSamePixels: text drawn through rasterCanvas is pixel for
// pixel vgimg's, with its glyph cache warm (drawn twice) or not.
func TestRasterTextSamePixels(t *testing.T) {
	canvas := func() (*vgimg.Canvas, *image.RGBA) {
		img := image.NewRGBA(image.Rect(0, 0, 420, 300))
		ctx := gg.NewContextForRGBA(img)
		ctx.SetLineCapButt()
		ctx.InvertY()
		return vgimg.NewWith(vgimg.UseImageWithContext(img, ctx), vgimg.UseDPI(dpi)), img
	}
	c, want := canvas()
	drawTexts(draw.New(c))
	drawTexts(draw.New(c))
	var glyphs glyphCache
	c2, got := canvas()
	rc := newRasterCanvas(c2, got, &glyphs)
	drawTexts(draw.New(rc))
	drawTexts(draw.New(rc))
	if len(rc.stack) != 0 {
		t.Errorf("%d states left on the stack", len(rc.stack))
	}
	if !bytes.Equal(want.Pix, got.Pix) {
		n := 0
		for i := range want.Pix {
			if want.Pix[i] != got.Pix[i] {
				n++
			}
		}
		t.Fatalf("%d of %d bytes differ", n, len(want.Pix))
	}
	if bytes.Equal(want.Pix, bytes.Repeat([]byte{255}, len(want.Pix))) {
		t.Fatal("nothing drawn")
	}
}

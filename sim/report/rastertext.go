package report

import (
	"image"
	"image/color"
	"math"

	"git.sr.ht/~sbinet/gg"
	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/f64"
	"golang.org/x/image/math/fixed"
	plotfont "gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgimg"
)

// rasterCanvas is a vgimg.Canvas whose text is drawn with the pixels
// vgimg and gg give it, in less time. vgimg makes a font face per
// string and gg renders every glyph again, then composites it through
// x/image/draw's generic path (an interface call and an allocation per
// pixel), about a tenth of a figure's drawing. rasterCanvas keeps each
// glyph's mask (glyphCache) and composites it with overGlyph, the same
// arithmetic on the pixel slices. To know gg's transform at FillString,
// it applies every Translate, Rotate and Scale to its own copy with gg's
// Matrix methods, and keeps the colour, both saved and restored with
// Push and Pop as gg does.
type rasterCanvas struct {
	*vgimg.Canvas
	img    *image.RGBA // what gg draws on
	height int         // the image's height in pixels (gg's InvertY)
	state  textState
	stack  []textState
	glyphs *glyphCache
}

// textState is the part of gg's state its text drawing reads.
type textState struct {
	m     gg.Matrix
	color color.Color
}

// newRasterCanvas wraps c, drawing on img through a gg context with
// InvertY applied and vg.Initialize's black, as renderImage makes it.
func newRasterCanvas(c *vgimg.Canvas, img *image.RGBA, glyphs *glyphCache) *rasterCanvas {
	h := img.Bounds().Dy()
	m := gg.Identity().Translate(0, float64(h)).Scale(1, -1)
	return &rasterCanvas{Canvas: c, img: img, height: h, state: textState{m: m, color: color.Black}, glyphs: glyphs}
}

// SetColor is vgimg's, the colour kept for text.
func (c *rasterCanvas) SetColor(clr color.Color) {
	if clr == nil {
		clr = color.Black
	}
	c.state.color = clr
	c.Canvas.SetColor(clr)
}

// Rotate is vgimg's, applied to the kept transform too.
func (c *rasterCanvas) Rotate(t float64) {
	c.state.m = c.state.m.Rotate(t)
	c.Canvas.Rotate(t)
}

// Translate is vgimg's, applied to the kept transform too.
func (c *rasterCanvas) Translate(pt vg.Point) {
	c.state.m = c.state.m.Translate(pt.X.Dots(c.DPI()), pt.Y.Dots(c.DPI()))
	c.Canvas.Translate(pt)
}

// Scale is vgimg's, applied to the kept transform too.
func (c *rasterCanvas) Scale(x, y float64) {
	c.state.m = c.state.m.Scale(x, y)
	c.Canvas.Scale(x, y)
}

// Push is vgimg's, saving the kept state too.
func (c *rasterCanvas) Push() {
	c.stack = append(c.stack, c.state)
	c.Canvas.Push()
}

// Pop is vgimg's, restoring the kept state too.
func (c *rasterCanvas) Pop() {
	c.state, c.stack = c.stack[len(c.stack)-1], c.stack[:len(c.stack)-1]
	c.Canvas.Pop()
}

// FillString draws text as vgimg's FillString does (gg's DrawString
// under InvertY at the canvas height less y), with kept glyphs.
func (c *rasterCanvas) FillString(f plotfont.Face, pt vg.Point, text string) {
	if f.Font.Size == 0 {
		return
	}
	dpi := c.DPI()
	_, h := c.Size()
	x, y := pt.X.Dots(dpi), h.Dots(dpi)-pt.Y.Dots(dpi)
	m := c.state.m.Translate(0, float64(c.height)).Scale(1, -1)
	face := c.glyphs.face(f, dpi)
	r, g, b, a := c.state.color.RGBA()
	src := [4]uint32{r, g, b, a}
	// gg's drawString, after x/image/font's Drawer.DrawString.
	dot := fixed.Point26_6{X: fixed.Int26_6(math.Round(x * 64)), Y: fixed.Int26_6(math.Round(y * 64))}
	prev := rune(-1)
	for _, ch := range text {
		if prev >= 0 {
			dot.X += face.face.Kern(prev, ch)
		}
		gl := c.glyphs.glyph(face, ch, dot)
		if !gl.ok {
			continue
		}
		dr := gl.dr.Add(image.Point{X: int(dot.X >> 6), Y: int(dot.Y >> 6)})
		gm := m.Translate(float64(dr.Min.X), float64(dr.Min.Y))
		s2d := f64.Aff3{gm.XX, gm.XY, gm.X0, gm.YX, gm.YY, gm.Y0}
		overGlyph(c.img, s2d, dr.Sub(dr.Min), src, &gl.mask, &c.glyphs.weights)
		dot.X += gl.advance
		prev = ch
	}
}

// glyphCache keeps the faces and glyph masks of the text drawn so far:
// opentype's Face.Glyph gives the same mask for a rune at the same
// sub-pixel position, its rectangle moved by the whole pixels. Not safe
// for concurrent use.
type glyphCache struct {
	faces   map[faceKey]*cachedFace
	weights [2][]float64 // overGlyph's kernel weights
}

// faceKey names a face: a font at a size and resolution.
type faceKey struct {
	font *sfnt.Font
	size vg.Length
	dpi  float64
}

// cachedFace is a face and its glyphs by rune and sub-pixel position.
type cachedFace struct {
	face   font.Face
	glyphs map[glyphKey]*glyph
}

type glyphKey struct {
	r      rune
	fx, fy fixed.Int26_6 // the dot's sub-pixel part, 0 to 63
}

// glyph is Face.Glyph's answer at a dot's sub-pixel part: dr is to be
// moved by the dot's whole pixels.
type glyph struct {
	dr      image.Rectangle
	mask    image.Alpha
	advance fixed.Int26_6
	ok      bool
}

// face returns f at dpi, made as vgimg makes it (plot's FontFace).
func (g *glyphCache) face(f plotfont.Face, dpi float64) *cachedFace {
	k := faceKey{f.Face, f.Font.Size, dpi}
	if cf := g.faces[k]; cf != nil {
		return cf
	}
	if g.faces == nil {
		g.faces = map[faceKey]*cachedFace{}
	}
	cf := &cachedFace{face: f.FontFace(dpi), glyphs: map[glyphKey]*glyph{}}
	g.faces[k] = cf
	return cf
}

// glyph returns r's glyph at dot in cf.
func (g *glyphCache) glyph(cf *cachedFace, r rune, dot fixed.Point26_6) *glyph {
	k := glyphKey{r, dot.X & 63, dot.Y & 63}
	if gl := cf.glyphs[k]; gl != nil {
		return gl
	}
	dr, mask, maskp, advance, ok := cf.face.Glyph(fixed.Point26_6{X: k.fx, Y: k.fy}, r)
	gl := &glyph{dr: dr, advance: advance, ok: ok}
	if ok {
		// The face reuses its mask: copy the glyph's, at the origin.
		a, isAlpha := mask.(*image.Alpha)
		if !isAlpha || maskp != a.Rect.Min || a.Rect.Min != (image.Point{}) {
			panic("report: unexpected glyph mask")
		}
		gl.mask = image.Alpha{Pix: append([]uint8(nil), a.Pix...), Stride: a.Stride, Rect: a.Rect}
	}
	cf.glyphs[k] = gl
	return gl
}

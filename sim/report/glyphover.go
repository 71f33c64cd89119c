package report

import (
	"image"
	"math"

	"golang.org/x/image/math/f64"
)

// overGlyph is what gg asks of x/image/draw for each glyph,
// draw.BiLinear.Transform(dst, s2d, image.NewUniform(colour), sr,
// draw.Over, &draw.Options{SrcMask: mask}), with the pixels that call
// gives: its code (x/image/draw's Kernel.Transform and
// transform_Image_Image_Over, BSD licence, The Go Authors) specialised to
// an *image.RGBA destination, a uniform source of premultiplied colour
// src and an *image.Alpha mask at the origin, reading and writing the
// pixel slices instead of At and Set. The float64 conversions are kept
// as written there: they forbid fused multiply-adds, which would change
// results. w holds the kernel weights from one call to the next.
func overGlyph(dst *image.RGBA, s2d f64.Aff3, sr image.Rectangle, src [4]uint32, mask *image.Alpha, w *[2][]float64) {
	dr := transformRect(&s2d, &sr)
	adr := dst.Bounds().Intersect(dr)
	if adr.Empty() || sr.Empty() {
		return
	}
	d2s := invertAff3(&s2d)
	bias := transformRect(&d2s, &adr).Min
	bias.X--
	bias.Y--
	d2s[2] -= float64(bias.X)
	d2s[5] -= float64(bias.Y)
	adr = adr.Sub(dr.Min)
	k := kernelScale{half: [2]float64{1, 1}, arg: [2]float64{1, 1}}
	for i, s := range [2]float64{max(math.Abs(d2s[0]), math.Abs(d2s[1])), max(math.Abs(d2s[3]), math.Abs(d2s[4]))} {
		if s > 1 {
			k.half[i] *= s
			k.arg[i] = 1 / s
		}
		if n := 1 + 2*int(math.Ceil(k.half[i])); cap(w[i]) < n {
			w[i] = make([]float64, n)
		} else {
			w[i] = w[i][:n]
		}
	}
	for dy := int32(adr.Min.Y); dy < int32(adr.Max.Y); dy++ {
		dyf := float64(dr.Min.Y+int(dy)) + 0.5
		for dx := int32(adr.Min.X); dx < int32(adr.Max.X); dx++ {
			dxf := float64(dr.Min.X+int(dx)) + 0.5
			sx := float64(d2s[0]*dxf) + float64(d2s[1]*dyf) + d2s[2]
			sy := float64(d2s[3]*dxf) + float64(d2s[4]*dyf) + d2s[5]
			if !(image.Point{int(sx) + bias.X, int(sy) + bias.Y}).In(sr) {
				continue
			}
			p := k.sample(sx+float64(bias.X), sy+float64(bias.Y), sr, src, mask, w)
			overPixel(dst, dr.Min.X+int(dx), dr.Min.Y+int(dy), p)
		}
	}
}

// kernelScale is the bilinear kernel's half width and argument scale
// along x and y, broadened when shrinking.
type kernelScale struct{ half, arg [2]float64 }

// sample is the premultiplied colour at source point (sx, sy) (biased),
// weighted by the kernel over the mask.
func (k kernelScale) sample(sx, sy float64, sr image.Rectangle, src [4]uint32, mask *image.Alpha, w *[2][]float64) (p [4]float64) {
	sx -= 0.5
	ix, jx := k.weights(w[0], sx, 0, sr.Min.X, sr.Max.X)
	sy -= 0.5
	iy, jy := k.weights(w[1], sy, 1, sr.Min.Y, sr.Max.Y)
	for ky := iy; ky < jy; ky++ {
		yWeight := w[1][ky-iy]
		if yWeight == 0 {
			continue
		}
		for kx := ix; kx < jx; kx++ {
			wt := w[0][kx-ix] * yWeight
			if wt == 0 {
				continue
			}
			var ma uint32
			if (image.Point{kx, ky}).In(mask.Rect) {
				ma = uint32(mask.Pix[mask.PixOffset(kx, ky)])
				ma |= ma << 8
			}
			for c := range 4 {
				p[c] += float64(float64(src[c]*ma/0xffff) * wt)
			}
		}
	}
	for c := range 3 {
		if p[c] > p[3] {
			p[c] = p[3]
		}
	}
	return p
}

// weights fills w with the normalised bilinear weights of the source
// pixels [i, j) around s along axis (0 x, 1 y), clipped to [lo, hi).
func (k kernelScale) weights(w []float64, s float64, axis, lo, hi int) (i, j int) {
	i = max(int(math.Floor(s-k.half[axis])), lo)
	j = min(int(math.Ceil(s+k.half[axis])), hi)
	total := 0.0
	for n := i; n < j; n++ {
		weight := 0.0
		if t := absf((s - float64(n)) * k.arg[axis]); t < 1 {
			weight = 1 - t
		}
		w[n-i] = weight
		total += weight
	}
	for n := range w[:j-i] {
		w[n] /= total
	}
	return i, j
}

// overPixel composites premultiplied p over dst's pixel (x, y) as
// x/image/draw does through At and Set.
func overPixel(dst *image.RGBA, x, y int, p [4]float64) {
	o := dst.PixOffset(x, y)
	pix := dst.Pix[o : o+4 : o+4]
	pa0 := uint32(fffftou(p[3]))
	pa1 := 0xffff - pa0
	for c := range 4 {
		q := uint32(pix[c])
		q |= q << 8
		p0 := pa0
		if c < 3 {
			p0 = uint32(fffftou(p[c]))
		}
		pix[c] = uint8(uint16(q*pa1/0xffff+p0) >> 8)
	}
}

// absf is x/image/draw's abs.
func absf(f float64) float64 {
	if f < 0 {
		f = -f
	}
	return f
}

// fffftou is x/image/draw's: f in [0, 0xffff] rounded to a uint16.
func fffftou(f float64) uint16 {
	i := int32(f + 0.5)
	if i > 0xffff {
		return 0xffff
	}
	if i > 0 {
		return uint16(i)
	}
	return 0
}

// invertAff3 is x/image/draw's invert.
func invertAff3(m *f64.Aff3) f64.Aff3 {
	m00 := +m[3*1+1]
	m01 := -m[3*0+1]
	m02 := +float64(m[3*1+2]*m[3*0+1]) - float64(m[3*1+1]*m[3*0+2])
	m10 := -m[3*1+0]
	m11 := +m[3*0+0]
	m12 := +float64(m[3*1+0]*m[3*0+2]) - float64(m[3*1+2]*m[3*0+0])
	det := float64(m00*m11) - float64(m10*m01)
	return f64.Aff3{m00 / det, m01 / det, m02 / det, m10 / det, m11 / det, m12 / det}
}

// transformRect is x/image/draw's: the destination pixels s2d maps sr
// onto.
func transformRect(s2d *f64.Aff3, sr *image.Rectangle) (dr image.Rectangle) {
	ps := [...]image.Point{
		{sr.Min.X, sr.Min.Y},
		{sr.Max.X, sr.Min.Y},
		{sr.Min.X, sr.Max.Y},
		{sr.Max.X, sr.Max.Y},
	}
	for i, p := range ps {
		sxf := float64(p.X)
		syf := float64(p.Y)
		dx := int(math.Floor(float64(s2d[0]*sxf) + float64(s2d[1]*syf) + s2d[2]))
		dy := int(math.Floor(float64(s2d[3]*sxf) + float64(s2d[4]*syf) + s2d[5]))
		if i == 0 {
			dr = image.Rectangle{Min: image.Point{dx, dy}, Max: image.Point{dx + 1, dy + 1}}
			continue
		}
		dr.Min.X = min(dr.Min.X, dx)
		dr.Max.X = max(dr.Max.X, dx+1)
		dr.Min.Y = min(dr.Min.Y, dy)
		dr.Max.Y = max(dr.Max.Y, dy+1)
	}
	return dr
}

package report

import (
	"bytes"
	"image"
	"image/png"
	"math/rand/v2"
	"testing"
)

// pngTestImages are images to encode both ways: white with sparse marks
// (a figure's look), noise (every filter wins somewhere), stripes, widths
// that leave every tail of the eight-byte steps, a sub-image (bounds not
// at the origin), a translucent one (image/png's path) and a drawn figure.
func pngTestImages(t *testing.T) []image.Image {
	r := rand.New(rand.NewPCG(1, 2))
	var imgs []image.Image
	for _, w := range []int{1, 2, 3, 4, 5, 7, 8, 9, 11, 16, 17, 64, 301} {
		for kind := range 4 {
			m := image.NewRGBA(image.Rect(0, 0, w, 23))
			for i := range m.Pix {
				switch kind {
				case 0:
					m.Pix[i] = 255
					if r.IntN(40) == 0 {
						m.Pix[i] = uint8(r.IntN(256))
					}
				case 1:
					m.Pix[i] = uint8(r.IntN(256))
				case 2:
					m.Pix[i] = uint8(i / 4 % 7 * 40)
				case 3:
					m.Pix[i] = uint8(255 - r.IntN(3))
				}
				if i%4 == 3 {
					m.Pix[i] = 255
				}
			}
			imgs = append(imgs, m)
		}
	}
	sub := imgs[len(imgs)-2].(*image.RGBA).SubImage(image.Rect(5, 3, 200, 20))
	clear := image.NewRGBA(image.Rect(0, 0, 10, 10))
	f := benchFigure()
	drawn, err := renderImage(&f, nil)
	if err != nil {
		t.Fatal(err)
	}
	return append(imgs, sub, clear, drawn)
}

// TestPNGEncoderSameBytes: pngEncoder writes image/png's bytes at
// BestSpeed, one encoder reused across all the images.
func TestPNGEncoderSameBytes(t *testing.T) {
	var e pngEncoder
	for i, m := range pngTestImages(t) {
		var want, got bytes.Buffer
		if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&want, m); err != nil {
			t.Fatal(err)
		}
		if err := e.encode(&got, m); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(want.Bytes(), got.Bytes()) {
			t.Fatalf("image %d (%v): %d bytes, image/png %d; they differ", i, m.Bounds(), got.Len(), want.Len())
		}
	}
}

func BenchmarkPNGEncoder(b *testing.B) {
	f := benchFigure()
	m, err := renderImage(&f, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("image-png", func(b *testing.B) {
		enc := png.Encoder{CompressionLevel: png.BestSpeed}
		for b.Loop() {
			if err := enc.Encode(new(bytes.Buffer), m); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("pngEncoder", func(b *testing.B) {
		var e pngEncoder
		for b.Loop() {
			if err := e.encode(new(bytes.Buffer), m); err != nil {
				b.Fatal(err)
			}
		}
	})
}

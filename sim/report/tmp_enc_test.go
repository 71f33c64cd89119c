package report

import (
	"bytes"
	"image"
	"image/draw"
	"image/png"
	"os"
	"testing"
)

func loadRGBA(b *testing.B, p string) *image.RGBA {
	f, err := os.Open(p)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	m, err := png.Decode(f)
	if err != nil {
		b.Fatal(err)
	}
	r := image.NewRGBA(m.Bounds())
	draw.Draw(r, r.Bounds(), m, image.Point{}, draw.Src)
	return r
}

func BenchmarkTmpEnc(b *testing.B) {
	ms := []*image.RGBA{loadRGBA(b, "/tmp/cmpout/base-mm10/overview.png"), loadRGBA(b, "/tmp/cmpout/base-mm10/timeline-server.png")}
	b.Logf("%v %v", ms[0].Bounds(), ms[1].Bounds())
	for round := 0; round < 6; round++ {
		b.Run("image-png", func(b *testing.B) {
			enc := png.Encoder{CompressionLevel: png.BestSpeed}
			for b.Loop() {
				for _, m := range ms {
					enc.Encode(new(bytes.Buffer), m)
				}
			}
		})
		b.Run("pngEncoder", func(b *testing.B) {
			var e pngEncoder
			for b.Loop() {
				for _, m := range ms {
					e.encode(new(bytes.Buffer), m)
				}
			}
		})
	}
}

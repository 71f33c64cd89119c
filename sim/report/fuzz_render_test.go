package report

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"testing"
)

// FuzzRender builds a figure from arbitrary bytes (odd sizes, NaN runs,
// flat, huge and negative values, log axes, spans and state bands anywhere)
// and checks that rendering either succeeds with a valid image or fails
// with an error, never panics, and gives the same bytes twice.
func FuzzRender(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8}, uint8(1), false)
	f.Add([]byte{0xff, 0xf8, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f}, uint8(3), true)
	f.Add(bytes.Repeat([]byte{0x7f, 0xef, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 4), uint8(2), true)
	f.Fuzz(func(t *testing.T, data []byte, shape uint8, logY bool) {
		var ys []float64
		for len(data) >= 8 {
			ys = append(ys, math.Float64frombits(binary.LittleEndian.Uint64(data)))
			data = data[8:]
		}
		if len(ys) > 64 {
			ys = ys[:64]
		}
		xs := make([]float64, len(ys))
		for i := range xs {
			xs[i] = float64(i) * float64(1+shape%5)
		}
		fig := Figure{Title: "fuzz", Width: 300 + int(shape%4)*100, Height: 300}
		np := 1 + int(shape%3)
		for p := range np {
			pn := Panel{Title: "p", YLabel: "y", LogY: logY && p == 0,
				Lines: []Line{{Label: "a", X: xs, Y: ys}, {Label: "b", X: xs[:len(xs)/2], Y: ys[len(ys)/2 : len(ys)/2+len(xs)/2]}}}
			if shape&8 != 0 && len(ys) > 1 {
				pn.States = []StateBand{{From: ys[0], To: ys[1], State: "open"}, {From: -1, To: 3, State: "x"}}
			}
			if shape&16 != 0 && len(ys) > 0 {
				pn.YMin = new(ys[0])
			}
			fig.Panels = append(fig.Panels, pn)
		}
		if shape&32 != 0 && len(ys) > 2 {
			fig.Spans = []Span{{From: ys[1], To: ys[2], Label: "fault"}, {From: 0, To: 1, Label: "another fault"}}
		}
		var a, b bytes.Buffer
		errA := RenderPNG(&a, fig)
		errB := RenderPNG(&b, fig)
		if (errA == nil) != (errB == nil) || !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Fatalf("two renders differ: %v / %v", errA, errB)
		}
		if errA != nil {
			if errors.Is(errA, errInternal) {
				t.Fatalf("panic while drawing: %v", errA)
			}
			if fig.Validate() == nil && errors.Is(errA, ErrInvalid) {
				t.Fatalf("valid figure reported invalid: %v", errA)
			}
			return
		}
		if a.Len() < 8 || string(a.Bytes()[1:4]) != "PNG" {
			t.Fatalf("not a PNG")
		}
	})
}

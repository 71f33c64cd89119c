package report

import (
	"bytes"
	"errors"
	"testing"
)

func TestHeatmapTickLabels(t *testing.T) {
	h := Heatmap{Title: "t", X: []float64{0, 1, 2}, Y: []float64{0, 1},
		Z:           [][]float64{{0, 0.5, 1}, {1, 0.5, 0}},
		XTickLabels: []string{"100ms", "1s", "10s"}, YTickLabels: []string{"low", "high"}}
	var b bytes.Buffer
	if err := h.RenderSVG(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"100ms", "10s", "high"} {
		if !bytes.Contains(b.Bytes(), []byte(want)) {
			t.Errorf("tick label %q missing from the SVG", want)
		}
	}
	h.YTickLabels = []string{"only one"}
	if err := h.RenderSVG(&b); !errors.Is(err, ErrInvalid) {
		t.Errorf("mismatched labels: err = %v, want ErrInvalid", err)
	}
}

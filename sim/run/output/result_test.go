package output

import (
	"errors"
	"io"
	"slices"
	"testing"

	"github.com/ressim/ressim/sim/report"
)

func TestWriteResult(t *testing.T) {
	fill := func(w io.Writer) error { _, err := io.WriteString(w, `{"x":1}`); return err }
	fig := Growing("f.png", report.Figure{Title: "t", Panels: []report.Panel{{Title: "p", Lines: []report.Line{{Label: "l", X: []float64{0, 1}, Y: []float64{0, 1}}}}}})

	var m Memory
	files, warns, err := WriteResult(&m, "r.json", fill, &fig)
	if err != nil || len(warns) != 0 || !slices.Equal(files, []string{"r.json", "f.svg"}) || string(m.Data("r.json")) != `{"x":1}` {
		t.Errorf("with a figure: files %v, warnings %v, err %v, data %q", files, warns, err, m.Data("r.json"))
	}

	var n Memory
	if files, _, err := WriteResult(&n, "r.json", fill, nil); err != nil || !slices.Equal(files, []string{"r.json"}) || len(n.Figures) != 0 {
		t.Errorf("without a figure: files %v, err %v, %d figures", files, err, len(n.Figures))
	}

	bad := errors.New("no")
	var o Memory
	if _, _, err := WriteResult(&o, "r.json", func(io.Writer) error { return bad }, &fig); !errors.Is(err, bad) || len(o.Figures) != 0 {
		t.Errorf("a failing JSON file: err %v, %d figures drawn anyway", err, len(o.Figures))
	}
}

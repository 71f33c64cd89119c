package sweep

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/output"
)

// TestWorkshopSession6Curve: notebooks/workshop.md session 6 asks to
// read sweep-goodput.png for "plateau or collapse, per discipline". The
// answer must be in the values drawn, and visible: FIFO (the base)
// collapses past the 1000/s capacity (its line ends far below its peak,
// and moves), while the bounded queue and adaptive LIFO plateau near
// the capacity.
func TestWorkshopSession6Curve(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the goodput-vs-load sweep")
	}
	exp, err := experiment.Load(filepath.Join("..", "..", "..", "experiments", "goodput-vs-load.toml"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := Run(context.Background(), exp, run.CompareOptions{Jobs: 2}, output.NewFolder(t.TempDir(), false))
	if err != nil {
		t.Fatal(err)
	}
	f := out.Result.lineFigure(out.Stats)
	p := f.Panels[0]
	views := p.Views()
	seen := 0
	for i, l := range p.Lines {
		peak, last := 0.0, l.Y[len(l.Y)-1]
		for _, y := range l.Y {
			peak = max(peak, y)
		}
		v := views[i]
		switch l.Label {
		case "base":
			seen++
			if last > 0.5*peak || !v.Moves() {
				t.Errorf("FIFO (base) should collapse visibly: peak %.0f, at the highest load %.0f, view %+v", peak, last, v)
			}
		case "bounded-queue", "adaptive-lifo":
			seen++
			if last < 0.8*peak || peak < 900 || !v.Visible() {
				t.Errorf("%s should plateau near 1000/s: peak %.0f, at the highest load %.0f, view %+v", l.Label, peak, last, v)
			}
		}
	}
	if seen != 3 {
		t.Errorf("%d of the three disciplines drawn in sweep-goodput.png (lines %d)", seen, len(p.Lines))
	}
}

// TestWorkshopSession4Phase: session 4 asks why nothing locks in below
// about 333 req/s in phase-base.png. The answer must be drawn: the
// heatmap marks "capacity if every call retries: 333 rps", every cell
// left of the mark is 0 (written in the cell) and cells right of it
// reach 1, so the boundary sits on the mark.
func TestWorkshopSession4Phase(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the metastable-phase sweep")
	}
	exp, err := experiment.Load(filepath.Join("..", "..", "..", "experiments", "metastable-phase.toml"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := Run(context.Background(), exp, run.CompareOptions{Jobs: 2}, output.NewFolder(t.TempDir(), false))
	if err != nil {
		t.Fatal(err)
	}
	h := out.Result.phaseFigure(out.Stats, 0)
	mark := -1.0
	for _, m := range h.Marks {
		if strings.Contains(m.Label, "capacity if every call retries: 333 rps") {
			mark = m.X
		}
	}
	if mark < 0 || !h.Annotate {
		t.Fatalf("phase-base.png: no 333 rps mark (marks %v) or cells not annotated", h.Marks)
	}
	left, right := 0.0, 0.0
	for _, row := range h.Z {
		for i, z := range row {
			if h.X[i] < mark {
				left = max(left, z)
			} else {
				right = max(right, z)
			}
		}
	}
	if left != 0 || right != 1 {
		t.Errorf("phase-base.png: left of the 333 rps mark the highest P(locked in) drawn is %v (want 0), right of it %v (want 1)", left, right)
	}
}

package compare

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
)

// TestWorkshopSession6Timeline: notebooks/workshop.md session 6 asks, of
// codel-lifo's compare-timeline.png, why FIFO delivers nothing during
// the 150 % surge (20 s to 80 s) while adaptive LIFO (the base) delivers
// the full capacity (10 workers / 10 ms = 1000/s). The answer must be
// in the values drawn, and visible: FIFO's mean line falls to the floor
// in the surge and moves; the base's stays near capacity there.
func TestWorkshopSession6Timeline(t *testing.T) {
	if testing.Short() {
		t.Skip("runs codel-lifo's comparison")
	}
	exp, err := experiment.Load(filepath.Join("..", "..", "..", "experiments", "codel-lifo.toml"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := RunAll(context.Background(), exp, run.CompareOptions{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	f := compareTimeline(c)
	surge := func(arm string) (mean float64, visible, moves bool) {
		t.Helper()
		for _, p := range f.Panels {
			if p.Title != "Goodput, "+arm && !strings.HasPrefix(p.Title, "Goodput, "+arm+":") {
				continue
			}
			for i, v := range p.Views() {
				l := p.Lines[i]
				if l.Thin || l.Label != arm {
					continue
				}
				m, n := windowMean(l.X, l.Y, 30, 80) // the surge, past its first 10 s
				if n == 0 {
					t.Fatalf("%s: no drawn values in the surge", arm)
				}
				return m, v.Visible(), v.Moves()
			}
		}
		t.Fatalf("no goodput panel with a mean line for %s in compare-timeline.png", arm)
		return 0, false, false
	}
	fifo, fifoVisible, fifoMoves := surge("fifo")
	base, baseVisible, _ := surge("base")
	if fifo > 10 || !fifoVisible || !fifoMoves {
		t.Errorf("fifo in the surge: drawn mean %.1f/s (want about 0), visible %v, moves %v", fifo, fifoVisible, fifoMoves)
	}
	if math.Abs(base-1000) > 100 || !baseVisible {
		t.Errorf("base (adaptive LIFO) in the surge: drawn mean %.1f/s (want about the 1000/s capacity), visible %v", base, baseVisible)
	}
}

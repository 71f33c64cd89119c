package sweep

import (
	"math"
	"strings"
	"testing"

	"github.com/ressim/ressim/internal/runtest"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/headline"
	"github.com/ressim/ressim/sim/report"
	"github.com/ressim/ressim/sim/run"
)

// sweepWith parses the test sweep and fills its cells with made-up
// headlines: in cell (x, y) of variant v, x+y+v of the 4 replications
// locked in (capped at 4), goodput 100 x (x+1) + y.
func sweepWith(t *testing.T, file string) *Result {
	t.Helper()
	exp, err := experiment.Parse("sw.toml", []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	res, _, err := newSweep(exp, run.CompareOptions{Replications: 4})
	if err != nil {
		t.Fatal(err)
	}
	res.spool, _ = newCellSpool("")
	for v := range res.Variants {
		for y := 0; y < res.ny; y++ {
			for x := 0; x < res.nx; x++ {
				for r := 0; r < res.Replications; r++ {
					h := run.Headline{HasFault: true, LockedIn: r < x+y+v, Goodput: 100*float64(x+1) + float64(y)}
					if err := res.spool.add(res.cell(v, y, x), run.RunRecord{Replication: r, Headline: h}); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
	return res
}

// TestPhaseFigureDrawsTheCells: the heatmap's cells are the sweep's
// statistics, the outline marks exactly the cells locked in in at least
// half the replications, and the capacity marks are where the formula
// puts them on the cells' axis (5 workers / 10 ms = 500/s, beyond the
// last column at 300; with 3 attempts 166.7/s, a third of the way from
// 100 to 300; the variant without retries has only the first).
func TestPhaseFigureDrawsTheCells(t *testing.T) {
	res := sweepWith(t, runtest.SweepFile)
	stats, err := res.stats()
	if err != nil {
		t.Fatal(err)
	}
	for v, name := range res.Variants {
		h := res.phaseFigure(stats, v)
		for _, s := range stats {
			if s.Variant != name {
				continue
			}
			k := min(s.X+s.Y+v, 4) // sweepWith's made-up count
			if h.Z[s.Y][s.X] != float64(k)/4 || h.Z[s.Y][s.X] != s.Value {
				t.Errorf("%s (%d, %d): drawn %v, stat %v, locked in %d of 4", name, s.X, s.Y, h.Z[s.Y][s.X], s.Value, k)
			}
			if h.Outline[s.Y][s.X] != (2*k >= 4) {
				t.Errorf("%s (%d, %d): outlined %v with %d of 4 locked in", name, s.X, s.Y, h.Outline[s.Y][s.X], k)
			}
		}
		want := []report.Mark{{X: 2, Label: "capacity 500 rps"}}
		if name == "base" {
			want = append(want, report.Mark{X: (500.0/3 - 100) / 200, Label: "capacity if every call retries: 167 rps"})
		}
		if len(h.Marks) != len(want) {
			t.Fatalf("%s: marks %v, want %v", name, h.Marks, want)
		}
		for i := range want {
			if math.Abs(h.Marks[i].X-want[i].X) > 1e-9 || h.Marks[i].Label != want[i].Label {
				t.Errorf("%s: mark %v, want %v", name, h.Marks[i], want[i])
			}
		}
	}
}

// TestSweepCurveDrawsTheCells: the goodput-against-load curve passes
// through every cell's mean goodput, in the order of the load, and marks
// the capacity at 500/s (5 workers / 10 ms) once for both variants,
// since they share it.
func TestSweepCurveDrawsTheCells(t *testing.T) {
	file := strings.Replace(strings.Replace(runtest.SweepFile, "y = { path = \"fault.0.duration\", label = \"spike\", values = [\"100ms\", \"2s\"] }\n", "", 1),
		"[sweep]\n", "[sweep]\nmetric = \"goodput\"\n", 1)
	res := sweepWith(t, file)
	stats, err := res.stats()
	if err != nil {
		t.Fatal(err)
	}
	f := res.lineFigure(stats)
	for v, l := range f.Panels[0].Lines {
		if l.Label != res.Variants[v] || len(l.Y) != 2 || l.X[0] != 100 || l.X[1] != 300 {
			t.Fatalf("line %d: %q at %v", v, l.Label, l.X)
		}
		for x, y := range l.Y {
			if y != 100*float64(x+1) {
				t.Errorf("%s at %v: drawn %v, the cells' goodput is %v", l.Label, l.X[x], y, 100*float64(x+1))
			}
		}
	}
	if len(f.Marks) != 2 || f.Marks[0].X != 500 || f.Marks[0].Label != "capacity 500 rps" || !strings.HasSuffix(f.Marks[1].Label, "167 rps (base)") {
		t.Errorf("marks %v, want capacity 500 rps and the retried capacity", f.Marks)
	}
}

// TestCurveFinding: the sweep curve's title names the variants that end
// below half their peak, and where they peaked.
func TestCurveFinding(t *testing.T) {
	good, lat := run.MetricOf(headline.Goodput), run.MetricOf(headline.P99Latency)
	x := []float64{500, 1000, 1100, 2000}
	fifo := report.Line{Label: "base", X: x, Y: []float64{500, 997, 0.2, 0}}
	bounded := report.Line{Label: "bounded-queue", X: x, Y: []float64{500, 997, 1001, 1001}}
	lifo := report.Line{Label: "adaptive-lifo", X: x, Y: []float64{500, 945, 975, math.NaN()}}
	tests := []struct {
		m     *run.MetricDef
		lines []report.Line
		want  string
	}{
		{good, []report.Line{fifo, bounded, lifo}, "base collapses past 1000 (0 at 2000); bounded-queue, adaptive-lifo hold"},
		{good, []report.Line{bounded, lifo}, ""},
		{good, []report.Line{fifo}, "base collapses past 1000 (0 at 2000)"},
		{good, []report.Line{fifo, bounded}, "base collapses past 1000 (0 at 2000); bounded-queue holds"},
		{lat, []report.Line{fifo, bounded}, ""},
	}
	for i, tc := range tests {
		if got := curveFinding(tc.m, tc.lines); got != tc.want {
			t.Errorf("case %d: %q, want %q", i, got, tc.want)
		}
	}
}

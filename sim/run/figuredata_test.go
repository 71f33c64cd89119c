package run

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/headline"
	"github.com/ressim/ressim/sim/report"
)

// windowMean is the mean of the values of ys whose x lies in (from, to].
func windowMean(xs, ys []float64, from, to float64) (float64, int) {
	sum, n := 0.0, 0
	for i, x := range xs {
		if x > from && x <= to && !math.IsNaN(ys[i]) {
			sum, n = sum+ys[i], n+1
		}
	}
	return sum / float64(n), n
}

// TestCompareTimelineDrawsTheHeadlines checks the values the comparison
// timeline draws against the numbers compare.md reports, run by run: each
// variant's thin lines are its replications' goodput series, whose mean
// over the measured window is the replication's goodput headline (both
// count the good answers of the window's intervals, 1 s each: equal to
// rounding); the thick line is their mean; the in-flight line ends at the
// mean of the runs' in-flight-at-end; each goodput panel names how many
// replications the verdicts found locked in. A series renamed on one
// side only draws NaN or zero lines here and fails.
func TestCompareTimelineDrawsTheHeadlines(t *testing.T) {
	exp := loadVariants(t)
	c, err := RunAll(context.Background(), exp, CompareOptions{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	f := compareTimeline(c)
	from, to := exp.Model.Warmup.Seconds(), exp.Model.Duration.Seconds()
	if len(f.Panels) != len(c.Arms)+2 {
		t.Fatalf("%d panels, want a goodput panel per variant and two more", len(f.Panels))
	}
	anyGood := false
	for a, arm := range c.Arms {
		p := f.Panels[a]
		var thin []report.Line
		var mean *report.Line
		for i := range p.Lines {
			if p.Lines[i].Thin {
				thin = append(thin, p.Lines[i])
			} else {
				mean = &p.Lines[i]
			}
		}
		if len(thin) != c.Replications || mean == nil || mean.Label != arm.Name {
			t.Fatalf("%s: %d thin lines and mean %v, want %d and one labelled %q", arm.Name, len(thin), mean != nil, c.Replications, arm.Name)
		}
		sumHeadline := 0.0
		for r, l := range thin {
			got, n := windowMean(l.X, l.Y, from, to)
			want := c.Headlines[a][r].Goodput
			sumHeadline += want
			if n != int(to-from) || math.Abs(got-want) > 1e-9*math.Max(1, want) {
				t.Errorf("%s replication %d: thin line's mean %v over %d intervals, goodput headline %v over %v s", arm.Name, r, got, n, want, to-from)
			}
			anyGood = anyGood || want > 0
		}
		if got, _ := windowMean(mean.X, mean.Y, from, to); math.Abs(got-sumHeadline/float64(c.Replications)) > 1e-9*math.Max(1, got) {
			t.Errorf("%s: mean line's mean %v, mean goodput headline %v", arm.Name, got, sumHeadline/float64(c.Replications))
		}
		wantTitle := fmt.Sprintf("%d of %d replications locked in", lockedInCount(c.Headlines[a]), c.Replications)
		if !strings.HasSuffix(p.Title, wantTitle) {
			t.Errorf("%s: panel title %q, want it to end %q", arm.Name, p.Title, wantTitle)
		}
		// In flight: the line's last value is the runs' mean at the end.
		in := f.Panels[len(c.Arms)].Lines[a]
		wantIn := 0.0
		for _, h := range c.Headlines[a] {
			wantIn += h.InFlightAtEnd / float64(c.Replications)
		}
		if got := in.Y[len(in.Y)-1]; math.Abs(got-wantIn) > 1e-9*math.Max(1, wantIn) {
			t.Errorf("%s: in-flight line ends at %v, the runs' mean in flight at the end is %v", arm.Name, got, wantIn)
		}
	}
	if !anyGood {
		t.Error("no run had any goodput: the check above compares zeros with zeros")
	}
}

// TestFoldLine: a replication's line keeps up to maxLinePoints values,
// each the mean of the intervals it folds (gaps left out), at the mean of
// their ends.
func TestFoldLine(t *testing.T) {
	short := []float64{1, math.NaN(), 3}
	l := foldLine(short)
	if l.per != 1 || len(l.values) != 3 || !math.IsNaN(float64(l.values[1])) {
		t.Errorf("short line folded to %+v", l)
	}
	n := 2*maxLinePoints + 1
	long := make([]float64, n)
	ends := make([]float64, n)
	for i := range long {
		long[i], ends[i] = float64(i), float64(i+1)
	}
	long[2] = math.NaN()
	l = foldLine(long)
	xs, ys := l.points(ends)
	if l.per != 3 || len(ys) != (n+2)/3 || len(ys) > maxLinePoints {
		t.Fatalf("%d values folded by %d into %d", n, l.per, len(ys))
	}
	// Bucket 0 holds 0, 1, NaN: mean 0.5 at the ends' mean 2; the last
	// holds only interval n-1.
	if ys[0] != 0.5 || xs[0] != 2 || ys[len(ys)-1] != float64(n-1) || xs[len(xs)-1] != float64(n) {
		t.Errorf("folded: first (%v, %v), last (%v, %v)", xs[0], ys[0], xs[len(xs)-1], ys[len(ys)-1])
	}
}

// sweepWith parses the test sweep and fills its cells with made-up
// headlines: in cell (x, y) of variant v, x+y+v of the 4 replications
// locked in (capped at 4), goodput 100 x (x+1) + y.
func sweepWith(t *testing.T, file string) *SweepResult {
	t.Helper()
	exp, err := experiment.Parse("sw.toml", []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	res, _, err := newSweep(exp, CompareOptions{Replications: 4})
	if err != nil {
		t.Fatal(err)
	}
	res.spool, _ = newCellSpool("")
	for v := range res.Variants {
		for y := 0; y < res.ny; y++ {
			for x := 0; x < res.nx; x++ {
				for r := 0; r < res.Replications; r++ {
					h := Headline{HasFault: true, LockedIn: r < x+y+v, Goodput: 100*float64(x+1) + float64(y)}
					if err := res.spool.add(res.cell(v, y, x), RunRecord{Replication: r, Headline: h}); err != nil {
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
	res := sweepWith(t, sweepFile)
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
	file := strings.Replace(strings.Replace(sweepFile, "y = { path = \"fault.0.duration\", label = \"spike\", values = [\"100ms\", \"2s\"] }\n", "", 1),
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
	good, lat := metricOf(headline.Goodput), metricOf(headline.P99Latency)
	x := []float64{500, 1000, 1100, 2000}
	fifo := report.Line{Label: "base", X: x, Y: []float64{500, 997, 0.2, 0}}
	bounded := report.Line{Label: "bounded-queue", X: x, Y: []float64{500, 997, 1001, 1001}}
	lifo := report.Line{Label: "adaptive-lifo", X: x, Y: []float64{500, 945, 975, math.NaN()}}
	tests := []struct {
		m     *MetricDef
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

package compare

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/report"
	"github.com/ressim/ressim/sim/run"
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
	c, err := RunAll(context.Background(), exp, run.CompareOptions{Jobs: 2})
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
		wantTitle := fmt.Sprintf("%d of %d replications locked in", run.LockedInCount(c.Headlines[a]), c.Replications)
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

// TestCompareTimelineMarksActions: a variant's timed actions are marked
// on its own goodput panel, at their instants and named in the legend;
// a variant without actions has no mark.
func TestCompareTimelineMarksActions(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "testdata", "variants.toml"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b) + `
[[variant]]
name = "cut-at-25s"
  [[variant.action]]
  at = "25s"
  label = "retries cut"
  set = { "client.users.retry.attempts" = 1 }
`
	exp, err := experiment.Parse("variants.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	exp.Replications = 1
	c, err := RunAll(context.Background(), exp, run.CompareOptions{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	f := compareTimeline(c)
	for a, arm := range c.Arms {
		got := f.Panels[a].Markers
		if arm.Name != "cut-at-25s" {
			if len(got) != 0 {
				t.Errorf("%s: marks %v, want none", arm.Name, got)
			}
			continue
		}
		if len(got) != 1 || got[0].At != 25 || got[0].Label != "action: retries cut" {
			t.Errorf("%s: marks %v, want one at 25 s labelled %q", arm.Name, got, "action: retries cut")
		}
	}
}

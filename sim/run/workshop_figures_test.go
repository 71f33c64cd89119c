package run

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/report"
	"github.com/ressim/ressim/sim/run/figures"
	"github.com/ressim/ressim/sim/run/output"
)

// TestWorkshopFiguresShowTheAnswers: every question of
// notebooks/workshop.md that points at a figure (sessions 1, 2, 3 and 5)
// reads its answer from the values that figure draws (the values
// TestFigureGolden pins), and the answer must be visible there: the
// line rises off the floor of its axis (report.LineView.Visible), moves
// when the answer is a change (Moves), and no later line hides it. A
// figure that scales a small series by a large one, or draws a line
// exactly over another without a band, fails here.
func TestWorkshopFiguresShowTheAnswers(t *testing.T) {
	if testing.Short() {
		t.Skip("runs four bundled experiments")
	}
	type look struct {
		question      string
		file, panel   string // the panel's title starts with panel
		line          string
		moves         bool    // the answer is a change: the line must move
		higher, lower float64 // and, when set, reach at least higher, at most lower
	}
	sessions := []struct {
		experiment string
		looks      []look
	}{
		{"checkout-pool-exhaustion", []look{
			{question: "1: how many threads are busy; when is the pool full?", file: "overview.png", panel: "Busy workers", line: "checkout", moves: true, higher: 199.9, lower: 25},
			{question: "1: why do cart updates fail too? (cart goodput 0 from 11 s to 20 s)", file: "overview.png", panel: "What the users got: client cart", line: "cart goodput", moves: true, lower: 0},
			{question: "1: why do cart updates fail too? (they fail)", file: "overview.png", panel: "What the users got: client cart", line: "cart failed", moves: true},
		}},
		{"retry-amplification", []look{
			{question: "2: attempts per second at each layer: 300 at the gateway", file: "overview.png", panel: "Attempts arriving", line: "gateway", higher: 280},
			{question: "2: attempts per second at each layer: 900 at orders", file: "overview.png", panel: "Attempts arriving", line: "orders", higher: 850},
			{question: "2: attempts per second at each layer: 2700 at the database", file: "overview.png", panel: "Attempts arriving", line: "database", higher: 2600},
		}},
		{"metastable-retry-storm", []look{
			{question: "3: look at the queue of timeline-api.png", file: "timeline-api.png", panel: "Queue", line: "queue length", moves: true, higher: 1990},
			{question: "3: the wasted-work line: who is api working for?", file: "timeline-api.png", panel: "Workers", line: "wasted (busy for nobody)", moves: true, higher: 9.5},
			{question: "3: the busy workers, under the wasted-work line", file: "timeline-api.png", panel: "Workers", line: "busy workers", higher: 9.5},
		}},
		{"breaker-fallback", []look{
			{question: "5: the breaker's fallback serves the users (degraded over 400/s)", file: "overview.png", panel: "What the users got", line: "users degraded", moves: true, higher: 400},
			{question: "5: what the users sent, under the degraded answers", file: "overview.png", panel: "What the users got", line: "users sent"},
		}},
	}
	for _, s := range sessions {
		exp, err := experiment.Load(filepath.Join("..", "..", "experiments", s.experiment+".toml"))
		if err != nil {
			t.Fatal(err)
		}
		out, err := Execute(exp, Options{}, output.NewFolder(t.TempDir(), false))
		if err != nil {
			t.Fatal(err)
		}
		figs := figures.Default(out.Result)
		for _, lk := range s.looks {
			v, y, ok := find(figs, lk.file, lk.panel, lk.line)
			if !ok {
				t.Errorf("%s, session %s: no line %q in a panel %q of %s", s.experiment, lk.question, lk.line, lk.panel, lk.file)
				continue
			}
			hi, lo := extremes(y)
			switch {
			case !v.Visible():
				t.Errorf("%s, session %s: %q is not visible in %s (%+v)", s.experiment, lk.question, lk.line, lk.file, v)
			case lk.moves && !v.Moves():
				t.Errorf("%s, session %s: %q does not visibly move in %s (%+v)", s.experiment, lk.question, lk.line, lk.file, v)
			case lk.higher != 0 && hi < lk.higher:
				t.Errorf("%s, session %s: %q reaches %v, want >= %v", s.experiment, lk.question, lk.line, hi, lk.higher)
			case lk.lower != 0 && lo > lk.lower, lk.lower == 0 && lk.moves && lk.higher == 0 && lo > 0:
				t.Errorf("%s, session %s: %q falls to %v, want <= %v", s.experiment, lk.question, lk.line, lo, lk.lower)
			}
		}
	}
}

// find returns how a figure's panel draws a line, and the values drawn.
func find(figs []figures.Named, file, panel, line string) (report.LineView, []float64, bool) {
	for _, f := range figs {
		if f.File != file {
			continue
		}
		for _, p := range f.Figure.Panels {
			if !strings.HasPrefix(p.Title, panel) {
				continue
			}
			for i, v := range p.Views() {
				if v.Label == line {
					return v, p.Lines[i].Y, true
				}
			}
		}
	}
	return report.LineView{}, nil, false
}

// extremes are the highest and lowest values of y, gaps aside.
func extremes(y []float64) (hi, lo float64) {
	hi, lo = -1e300, 1e300
	for _, v := range y {
		if v == v {
			hi, lo = max(hi, v), min(lo, v)
		}
	}
	return hi, lo
}

// TestWorkshopSession5BreakerStrip: session 5 reads breaker-fallback's
// breaker strip in overview.png: closed, open, a thin half-open at
// 35 s, open again, another half-open at 65 s, closed. The strip the
// figure draws must show that sequence, the half-opens at those times
// (each is widened to be seen, report's doc: a band under 5 px is drawn
// wider, so its time is what the test holds).
func TestWorkshopSession5BreakerStrip(t *testing.T) {
	if testing.Short() {
		t.Skip("runs breaker-fallback")
	}
	exp, err := experiment.Load(filepath.Join("..", "..", "experiments", "breaker-fallback.toml"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := Execute(exp, Options{}, output.NewFolder(t.TempDir(), false))
	if err != nil {
		t.Fatal(err)
	}
	var states []report.StateBand
	for _, f := range figures.Default(out.Result) {
		if f.File != "overview.png" {
			continue
		}
		for _, p := range f.Figure.Panels {
			if strings.HasPrefix(p.Title, "Circuit breaker") {
				states = p.States
			}
		}
	}
	var seq []string
	var halfOpen []float64
	for _, b := range states {
		if len(seq) == 0 || seq[len(seq)-1] != b.State {
			seq = append(seq, b.State)
		}
		if b.State == "half-open" {
			halfOpen = append(halfOpen, b.From)
		}
	}
	want := []string{"closed", "open", "half-open", "open", "half-open", "closed"}
	if strings.Join(seq, ",") != strings.Join(want, ",") {
		t.Fatalf("the breaker strip draws %v, want %v", seq, want)
	}
	if len(halfOpen) != 2 || halfOpen[0] < 34 || halfOpen[0] > 36 || halfOpen[1] < 64 || halfOpen[1] > 66 {
		t.Errorf("half-open bands start at %v s, want about 35 and 65", halfOpen)
	}
}

package run

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/report"
	"github.com/ressim/ressim/sim/run/figures"
	"github.com/ressim/ressim/sim/run/output"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func load(t *testing.T) *experiment.Experiment {
	t.Helper()
	exp, err := experiment.Load(filepath.Join("testdata", "small.toml"))
	if err != nil {
		t.Fatal(err)
	}
	return exp
}

// TestDeterministic runs the same experiment twice, plots and both
// traces included, and requires byte-identical outputs.
func TestDeterministic(t *testing.T) {
	exp := load(t)
	opt := Options{Plots: true, TraceEvery: 10, TraceFormat: TraceBoth}
	a, err := Execute(exp, opt, output.NewFolder(t.TempDir(), false))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Execute(exp, opt, output.NewFolder(t.TempDir(), false))
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Files) != len(b.Files) || len(a.Files) != 8 {
		t.Fatalf("files %v vs %v; want summary, time series, events, both traces, the overview and two service plots", a.Files, b.Files)
	}
	for i := range a.Files {
		x, _ := os.ReadFile(a.Files[i])
		y, _ := os.ReadFile(b.Files[i])
		if len(x) == 0 || !bytes.Equal(x, y) {
			t.Errorf("%s differs between two runs of the same experiment and seed (%d vs %d bytes)",
				filepath.Base(a.Files[i]), len(x), len(y))
		}
	}
}

// TestSeedOverride checks that --seed changes the run and is recorded.
func TestSeedOverride(t *testing.T) {
	exp := load(t)
	seed := uint64(43)
	a, err := Execute(exp, Options{}, output.NewFolder(t.TempDir(), false))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Execute(exp, Options{Seed: &seed}, output.NewFolder(t.TempDir(), false))
	if err != nil {
		t.Fatal(err)
	}
	if b.Result.Seed != 43 || a.Result.Seed != 42 {
		t.Fatalf("seeds %d, %d; want 42, 43", a.Result.Seed, b.Result.Seed)
	}
	if a.Result.Services[0].Arrivals == b.Result.Services[0].Arrivals {
		t.Error("a different seed gave the same arrival count")
	}
}

// TestGoldenOutputs pins summary.json and timeseries.csv byte for byte: a
// change to the model, the random streams or the formats shows up here.
// Regenerate with: go test ./sim/run -run TestGoldenOutputs -update
func TestGoldenOutputs(t *testing.T) {
	out, err := Execute(load(t), Options{}, output.NewFolder(t.TempDir(), false))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{SummaryFile, TimeSeriesFile} {
		got, err := os.ReadFile(filepath.Join(out.Dir, name))
		if err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", "small."+name+".golden")
		if *update {
			if err := os.WriteFile(golden, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run with -update to create it)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from %s; if the change is intended, run with -update", name, golden)
		}
	}
}

func TestSummaryNulls(t *testing.T) {
	exp := load(t)
	exp.Model.Clients = exp.Model.Clients[:1] // db gets no traffic
	out, err := Execute(exp, Options{}, output.NewFolder(t.TempDir(), false))
	if err != nil {
		t.Fatal(err)
	}
	s := NewSummary(out.Result).Services["db"]
	if s.Arrivals != 0 || s.MeanSojournS != nil || s.P99SojournS != nil || s.RejectionRatio != nil {
		t.Errorf("idle service: arrivals %d, mean %v, p99 %v, rejection %v; want 0 and nulls",
			s.Arrivals, s.MeanSojournS, s.P99SojournS, s.RejectionRatio)
	}
	if s.Utilization == nil || *s.Utilization != 0 {
		t.Errorf("idle utilization = %v, want 0", s.Utilization)
	}
}

// TestTrace runs with tracing and checks the trace-event file: valid JSON,
// one process per traced request, paired begin and end events with the
// slices a request's life is made of, and deterministic bytes.
func TestTrace(t *testing.T) {
	exp, err := experiment.Load(filepath.Join("..", "..", "experiments", "retry-amplification.toml"))
	if err != nil {
		t.Fatal(err)
	}
	var raw [2][]byte
	for i := range raw {
		out, err := Execute(exp, Options{TraceEvery: 50, TraceMax: 5}, output.NewFolder(t.TempDir(), false))
		if err != nil {
			t.Fatal(err)
		}
		if raw[i], err = os.ReadFile(filepath.Join(out.Dir, TraceFile)); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(raw[0], raw[1]) {
		t.Error("trace differs between two runs")
	}
	var doc struct {
		TraceEvents []struct {
			Name, Cat, Ph string
			ID, Pid       int
			Ts            float64
		} `json:"traceEvents"`
	}
	if err := json.Unmarshal(raw[0], &doc); err != nil {
		t.Fatal(err)
	}
	procs, cats := map[int]bool{}, map[string]int{}
	open := map[int]float64{}
	for _, e := range doc.TraceEvents {
		switch e.Ph {
		case "M":
			procs[e.Pid] = true
		case "b":
			open[e.ID] = e.Ts
			cats[e.Cat]++
		case "e":
			b, ok := open[e.ID]
			if !ok || e.Ts < b {
				t.Fatalf("end of %q without a matching begin, or before it", e.Name)
			}
			delete(open, e.ID)
		}
	}
	if len(procs) != 5 || len(open) != 0 {
		t.Errorf("%d traced requests (want 5), %d unclosed slices", len(procs), len(open))
	}
	// Three retrying layers over a failing database: every traced request
	// has 3 calls of 3 attempts at each layer, and backoffs between them.
	for _, c := range []string{"request", "call", "attempt", "work", "backoff"} {
		if cats[c] == 0 {
			t.Errorf("no %s slices in the trace (%v)", c, cats)
		}
	}
	if cats["attempt"] != 5*(3+9+27) {
		t.Errorf("%d attempt slices, want 5 requests x 39", cats["attempt"])
	}
}

// drawn summarises the values a line draws: their sum, range and last
// value, to 6 significant digits (NaN points skipped and counted), so
// that a line that draws the wrong series, or zeros, changes the golden.
func drawn(y []float64) string {
	sum, lo, hi, last, gaps := 0.0, math.Inf(1), math.Inf(-1), math.NaN(), 0
	for _, v := range y {
		if math.IsNaN(v) {
			gaps++
			continue
		}
		sum, lo, hi, last = sum+v, min(lo, v), max(hi, v), v
	}
	return fmt.Sprintf("sum %.6g, min %.6g, max %.6g, last %.6g, %d gaps", sum, lo, hi, last, gaps)
}

// seen says how a line is drawn when that is not plain: a line at the
// floor of its axis, or under a later one (and then with a band).
func seen(v report.LineView) string {
	var s string
	if !v.Visible() {
		s += ", at the floor"
	}
	if v.Covered != "" {
		s += fmt.Sprintf(", under %q (band %v)", v.Covered, v.Widened)
	}
	return s
}

// TestFigureGolden pins what the default figures show for the small
// experiment and for a comparison: titles, panels, their axes, the lines
// and fault spans (the renderer's own pixels are pinned by sim/report's
// golden images), and a summary of the values each line draws.
// Regenerate with -update.
func TestFigureGolden(t *testing.T) {
	var b strings.Builder
	describe := func(file string, f report.Figure) {
		fmt.Fprintf(&b, "%s: %q / %q\n", file, f.Title, f.Subtitle)
		for _, s := range f.Spans {
			fmt.Fprintf(&b, "  span [%g, %g) %q\n", s.From, s.To, s.Label)
		}
		for _, p := range f.Panels {
			fmt.Fprintf(&b, "  panel %q, y %q, log %v, %d state bands\n", p.Title, p.YLabel, p.LogY, len(p.States))
			views := p.Views()
			for i, l := range p.Lines {
				fmt.Fprintf(&b, "    line %q: %d points, %s%s\n", l.Label, len(l.X), drawn(l.Y), seen(views[i]))
			}
		}
	}
	out, err := Execute(load(t), Options{}, output.NewFolder(t.TempDir(), false))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range figures.Default(out.Result) {
		describe(f.File, f.Figure)
	}
	exp, err := experiment.Load(filepath.Join("..", "..", "experiments", "breaker-fallback.toml"))
	if err != nil {
		t.Fatal(err)
	}
	bf, err := Execute(exp, Options{}, output.NewFolder(t.TempDir(), false))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range figures.Default(bf.Result) {
		if f.File == "overview.png" {
			describe("breaker-fallback "+f.File, f.Figure)
		}
	}
	golden := filepath.Join("testdata", "figures.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if b.String() != string(want) {
		t.Errorf("figures differ from %s; if intended, run with -update\n%s", golden, b.String())
	}
}

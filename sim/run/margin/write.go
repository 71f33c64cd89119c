package margin

import (
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/ressim/ressim/internal/version"
	"github.com/ressim/ressim/sim/analysis"
	"github.com/ressim/ressim/sim/report"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/output"
)

// Interval names the method of the threshold's interval in margin.json.
const Interval = "profile likelihood (likelihood ratio, chi-squared 1 df, 95 %)"

// write writes margin.json and, with plots, margin.png into sink.
func (out *Output) write(sink output.Sink, plots bool) error {
	var fig *output.Figure
	if plots {
		f := output.ChartFigure(FigureFile, out.Result.Figure())
		fig = &f
	}
	files, warn, err := output.WriteResult(sink, JSONFile, out.Result.WriteJSON, fig)
	out.Files = append(out.Files, files...)
	out.Warnings = append(out.Warnings, warn...)
	return err
}

type pointJSON struct {
	Trigger  float64  `json:"trigger"`
	Runs     int      `json:"runs"`
	LockedIn int      `json:"locked_in"`
	Share    float64  `json:"share"`
	Round    int      `json:"round"`
	Seeds    []uint64 `json:"seeds"`
}

type marginJSON struct {
	Version      string      `json:"ressim_version"`
	Experiment   string      `json:"experiment"`
	Fault        string      `json:"fault"`
	By           string      `json:"by"`
	FileTrigger  float64     `json:"file_trigger"`
	Target       float64     `json:"target"`
	Duration     *float64    `json:"threshold_duration_s,omitempty"`
	Size         *float64    `json:"threshold_size,omitempty"`
	Load         *float64    `json:"threshold_load_rps,omitempty"`
	Lo           float64     `json:"ci95_lo"`
	Hi           float64     `json:"ci95_hi"`
	LoOpen       bool        `json:"ci95_lo_open"`
	HiOpen       bool        `json:"ci95_hi_open"`
	Status       string      `json:"status"`
	Method       string      `json:"method"`
	Interval     string      `json:"interval"`
	Scale        string      `json:"scale"`
	Slope        float64     `json:"slope"`
	Seed         uint64      `json:"seed"`
	Replications int         `json:"replications"`
	MaxPoints    int         `json:"max_points"`
	Runs         int         `json:"runs"`
	Points       []pointJSON `json:"points"`
}

// WriteJSON writes margin.json: the threshold under the trigger's key
// (threshold_duration_s, threshold_size or threshold_load_rps), its 95 %
// interval, the target, and every point tried with its counts and seeds,
// in the order tried.
func (r *Result) WriteJSON(w io.Writer) error {
	t := r.Trigger
	doc := marginJSON{Version: version.Version, Experiment: r.Name, Fault: t.Label, By: t.By, FileTrigger: t.File,
		Target: r.Target, Lo: r.Lo, Hi: r.Hi, LoOpen: r.Fit.LoOpen, HiOpen: r.Fit.HiOpen, Status: r.Status,
		Method:   "logistic dose-response fit by maximum likelihood on (trigger, runs, locked_in), points chosen by a scan then by the fit",
		Interval: Interval, Scale: "linear", Slope: r.Fit.Slope, Seed: r.Seed, Replications: r.Replications, MaxPoints: r.MaxPoints,
		Points: []pointJSON{}}
	if t.Log {
		doc.Scale = "log"
	}
	th := r.Threshold
	switch t.By {
	case ByDuration:
		doc.Duration = &th
	case BySize:
		doc.Size = &th
	case ByLoad:
		doc.Load = &th
	}
	for _, p := range r.Points {
		pj := pointJSON{Trigger: p.Trigger, Runs: p.Runs, LockedIn: p.LockedIn, Share: float64(p.LockedIn) / float64(p.Runs), Round: p.Round}
		for k := range p.Runs {
			pj.Seeds = append(pj.Seeds, run.ReplicationSeed(r.Seed, p.First+k))
		}
		doc.Runs += p.Runs
		doc.Points = append(doc.Points, pj)
	}
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	if err := e.Encode(doc); err != nil {
		return fmt.Errorf("%s: %w", JSONFile, err)
	}
	return nil
}

// Summary is one line for the terminal: "threshold 112ms (95 %: 98ms to
// 127ms) for P(locked in) >= 0.5, from 96 runs at 12 points".
func (r *Result) Summary() string {
	t := r.Trigger
	runs := 0
	for _, p := range r.Points {
		runs += p.Runs
	}
	lo, hi := t.Format(r.Lo), t.Format(r.Hi)
	if r.Fit.LoOpen {
		lo = "below " + lo
	}
	if r.Fit.HiOpen {
		hi = "above " + hi
	}
	s := fmt.Sprintf("%s threshold %s (95 %%: %s to %s) for P(locked in) = %g, from %d runs at %d points",
		t.By, t.Format(r.Threshold), lo, hi, r.Target, runs, len(r.Points))
	switch r.Status {
	case "above_range":
		s += "; extrapolated above every point tried"
	case "below_range":
		s += "; extrapolated below every point tried"
	}
	return s
}

// Figure is margin.png: the share locked in at each point with its
// Wilson interval, the fitted curve with its 95 % band, the target and
// the threshold with its interval.
func (r *Result) Figure() report.DoseResponse {
	t := r.Trigger
	sorted := slicesSorted(r.Points)
	d := report.DoseResponse{
		Title: fmt.Sprintf("%s: P(locked in) against %s's %s", r.Name, t.Label, byNoun(t.By)),
		Subtitle: fmt.Sprintf("threshold %s at P = %g (95 %%: %s to %s), %d points x %d replications, seed %d; the file's trigger: %s",
			t.Format(r.Threshold), r.Target, t.Format(r.Lo), t.Format(r.Hi), len(r.Points), r.Replications, r.Seed, t.Format(t.File)),
		XLabel: t.Axis, YLabel: "P(locked in)", LogX: t.Log,
		Target: r.Target, Threshold: r.Threshold, ThresholdLo: r.Lo, ThresholdHi: r.Hi,
		ThresholdLabel: "threshold " + t.Format(r.Threshold),
	}
	for _, p := range sorted {
		ci := analysis.Wilson(p.LockedIn, p.Runs)
		d.Points = append(d.Points, report.DosePoint{X: p.Trigger, Y: float64(p.LockedIn) / float64(p.Runs),
			Lo: ci.Lo, Hi: ci.Hi, Label: fmt.Sprintf("%d/%d", p.LockedIn, p.Runs)})
	}
	glo, ghi := t.G(sorted[0].Trigger), t.G(sorted[len(sorted)-1].Trigger)
	glo, ghi = math.Min(glo, r.Fit.Lo), math.Max(ghi, r.Fit.Hi)
	pad := (ghi - glo) * 0.05
	glo, ghi = glo-pad, ghi+pad
	if !t.Log {
		glo = math.Max(glo, 0)
	}
	const n = 200
	gs := make([]float64, n+1)
	for i := range gs {
		gs[i] = glo + (ghi-glo)*float64(i)/n
	}
	lo, hi := r.Fit.Band(gs)
	for _, g := range gs {
		d.CurveX = append(d.CurveX, t.X(g))
		d.Curve = append(d.Curve, r.Fit.P(g))
	}
	d.BandLo, d.BandHi = lo, hi
	return d
}

func byNoun(by string) string {
	switch by {
	case ByDuration:
		return "duration"
	case BySize:
		return "size"
	}
	return "offered load"
}

func slicesSorted(ps []Point) []Point {
	s := &search{points: ps}
	return s.sorted()
}

package hysteresis

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/ressim/ressim/internal/version"
	"github.com/ressim/ressim/sim/report"
	"github.com/ressim/ressim/sim/run/output"
)

// write writes hysteresis.json and, with plots, hysteresis.png into sink.
func (out *Output) write(sink output.Sink, plots bool) error {
	var fig *output.Figure
	if plots {
		f := output.Growing(FigureFile, out.Result.Figure())
		fig = &f
	}
	files, warn, err := output.WriteResult(sink, JSONFile, out.Result.WriteJSON, fig)
	out.Files = append(out.Files, files...)
	out.Warnings = append(out.Warnings, warn...)
	return err
}

type pointJSON struct {
	Time     float64 `json:"time_s"`
	Offered  float64 `json:"offered_rps"`
	Sent     float64 `json:"sent_rps"`
	Goodput  float64 `json:"goodput_rps"`
	InSystem float64 `json:"in_system"`
	Branch   string  `json:"branch"`
}

type binJSON struct {
	Lo        float64  `json:"lo_rps"`
	Hi        float64  `json:"hi_rps"`
	Up        *float64 `json:"up_goodput_rps"`
	Down      *float64 `json:"down_goodput_rps"`
	UpCount   int      `json:"up_intervals"`
	DownCount int      `json:"down_intervals"`
	Bistable  bool     `json:"bistable"`
}

type regionJSON struct {
	Lo float64 `json:"lo_rps"`
	Hi float64 `json:"hi_rps"`
}

type bandJSON struct {
	Found bool     `json:"found"`
	Lo    *float64 `json:"lo_rps"`
	Hi    *float64 `json:"hi_rps"`
	// As shares of the client's capacity, when it is known.
	LoCapacity *float64     `json:"lo_share_of_capacity"`
	HiCapacity *float64     `json:"hi_share_of_capacity"`
	Threshold  float64      `json:"threshold"`
	Window     float64      `json:"window_rps"`
	Test       string       `json:"test"`
	Regions    []regionJSON `json:"regions"`
	Bins       []binJSON    `json:"bins"`
}

type hysteresisJSON struct {
	Version    string      `json:"ressim_version"`
	Experiment string      `json:"experiment"`
	Client     string      `json:"client"`
	FileRate   float64     `json:"file_rate_rps"`
	From       float64     `json:"from_rps"`
	To         float64     `json:"to_rps"`
	Ramp       float64     `json:"ramp_s"`
	Hold       float64     `json:"hold_s"`
	Interval   float64     `json:"interval_s"`
	Seed       uint64      `json:"seed"`
	Events     uint64      `json:"events"`
	Capacity   *float64    `json:"capacity_rps"`
	Retried    *float64    `json:"capacity_if_every_call_retries_rps"`
	Band       bandJSON    `json:"band"`
	Points     []pointJSON `json:"points"`
}

// Test describes the band's test in hysteresis.json.
const Test = "a window of offered load is bistable when the up and down branches both have intervals in it and their mean goodputs differ by more than threshold x the window's middle load; the band is the widest run of adjacent bistable windows"

func ptr(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// WriteJSON writes hysteresis.json: the ramp, the band's edges (null
// when there is none) with its windows, and every interval's point in
// time order.
func (r *Result) WriteJSON(w io.Writer) error {
	rp := r.Ramp
	doc := hysteresisJSON{Version: version.Version, Experiment: r.Name, Client: rp.Name, FileRate: rp.FileRate,
		From: rp.From, To: rp.To, Ramp: rp.Ramp.Seconds(), Hold: rp.Hold.Seconds(), Interval: r.Interval, Seed: r.Seed,
		Events: r.Events, Points: make([]pointJSON, 0, len(r.Points))}
	if r.Capacity > 0 {
		doc.Capacity, doc.Retried = ptr(r.Capacity), ptr(r.Retried)
	}
	b := &r.Band
	doc.Band = bandJSON{Found: b.Found, Threshold: r.Threshold, Window: (rp.To - rp.From) / float64(r.Bins), Test: Test,
		Regions: []regionJSON{}, Bins: make([]binJSON, 0, len(b.Bins))}
	if b.Found {
		doc.Band.Lo, doc.Band.Hi = ptr(b.Lo), ptr(b.Hi)
		if r.Capacity > 0 {
			doc.Band.LoCapacity, doc.Band.HiCapacity = ptr(b.Lo/r.Capacity), ptr(b.Hi/r.Capacity)
		}
	}
	for _, g := range b.Regions {
		doc.Band.Regions = append(doc.Band.Regions, regionJSON(g))
	}
	for _, bin := range b.Bins {
		doc.Band.Bins = append(doc.Band.Bins, binJSON{Lo: bin.Lo, Hi: bin.Hi, Up: ptr(bin.Up), Down: ptr(bin.Down),
			UpCount: bin.UpCount, DownCount: bin.DownCount, Bistable: bin.Bistable})
	}
	for _, p := range r.Points {
		doc.Points = append(doc.Points, pointJSON{Time: p.Time, Offered: p.Offered, Sent: nan0(p.Sent), Goodput: nan0(p.Goodput),
			InSystem: nan0(p.InSystem), Branch: p.Branch})
	}
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	if err := e.Encode(doc); err != nil {
		return fmt.Errorf("%s: %w", JSONFile, err)
	}
	return nil
}

// nan0 is x, or 0 for a value the series lacks.
func nan0(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}

// FormatBand writes the band: "bistable from 340 to 980 rps (34 % to
// 98 % of capacity)", or "no bistable band".
func (r *Result) FormatBand() string {
	b := &r.Band
	if !b.Found {
		return fmt.Sprintf("no bistable band (goodputs of the two branches within %g %% of the offered load)", 100*r.Threshold)
	}
	s := fmt.Sprintf("bistable from %s to %s rps", fmtRate(b.Lo), fmtRate(b.Hi))
	if r.Capacity > 0 {
		s += fmt.Sprintf(" (%.0f %% to %.0f %% of capacity %s rps)", 100*b.Lo/r.Capacity, 100*b.Hi/r.Capacity, fmtRate(r.Capacity))
	}
	return s
}

// Summary is the terminal's line about the band.
func (r *Result) Summary() string {
	s := r.FormatBand()
	if n := len(r.Band.Regions); n > 1 {
		s += fmt.Sprintf("; the widest of %d bistable regions", n)
	}
	return s + fmt.Sprintf(", by goodputs apart by more than %g %% of the offered load over windows of %s rps", 100*r.Threshold,
		fmtRate((r.Ramp.To-r.Ramp.From)/float64(r.Bins)))
}

func fmtRate(x float64) string {
	if x >= 100 {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.3g", x)
}

// possessive is "api's", "users'".
func possessive(name string) string {
	if strings.HasSuffix(name, "s") {
		return name + "'"
	}
	return name + "'s"
}

// Figure is hysteresis.png: goodput, and the target's backlog, against the
// offered load, the up branch (with the hold at the top) and the down
// branch in two colours, each interval thin and each window's mean
// marked, the bistable band shaded and the capacities marked.
func (r *Result) Figure() report.Figure {
	rp := r.Ramp
	upLabel, downLabel := "up: load rising →", "down: load falling ←"
	var upX, upG, upS, downX, downG, downS []float64
	for _, p := range r.Points {
		if p.Branch == Down {
			continue
		}
		upX, upG, upS = append(upX, p.Offered), append(upG, p.Goodput), append(upS, p.InSystem)
	}
	for i := len(r.Points) - 1; i >= 0; i-- {
		if p := r.Points[i]; p.Branch == Down {
			downX, downG, downS = append(downX, p.Offered), append(downG, p.Goodput), append(downS, p.InSystem)
		}
	}
	var mx, mu, md []float64
	for _, b := range r.Band.Bins {
		mx, mu, md = append(mx, (b.Lo+b.Hi)/2), append(mu, b.Up), append(md, b.Down)
	}
	inSystem := func(p Point) float64 { return p.InSystem }
	zero := 0.0
	f := report.Figure{
		Title: fmt.Sprintf("%s: %s load up and down: %s", r.Name, possessive(rp.Name), r.FormatBand()),
		Subtitle: fmt.Sprintf("%s rps to %s and back, %v each way, %v holds; one run, seed %d; thin: each %gs interval, dots: mean over %s rps windows; band: goodputs apart by > %g %% of the load",
			fmtRate(rp.From), fmtRate(rp.To), rp.Ramp, rp.Hold, r.Seed, r.Interval, fmtRate((rp.To-rp.From)/float64(r.Bins)), 100*r.Threshold),
		XLabel: "offered load (requests/s)",
		Panels: []report.Panel{
			{Title: "Goodput", YLabel: "good answers/s", YMin: &zero, Lines: []report.Line{
				{Label: upLabel, X: upX, Y: upG, Thin: true},
				{Label: downLabel, X: downX, Y: downG, Thin: true},
				{Label: upLabel, X: mx, Y: mu, Points: true},
				{Label: downLabel, X: mx, Y: md, Points: true},
				{Label: "offered load", X: []float64{rp.From, rp.To}, Y: []float64{rp.From, rp.To}, Dashed: true},
			}},
			{Title: "Backlog: requests in " + rp.Target + ", queued or in service", YLabel: "requests", YMin: &zero, Lines: []report.Line{
				{Label: upLabel, X: upX, Y: upS, Thin: true},
				{Label: downLabel, X: downX, Y: downS, Thin: true},
				{Label: upLabel, X: mx, Y: binMeans(r, Up, inSystem), Points: true},
				{Label: downLabel, X: mx, Y: binMeans(r, Down, inSystem), Points: true},
			}},
		},
	}
	if r.Band.Found {
		f.Spans = []report.Span{{From: r.Band.Lo, To: r.Band.Hi, Label: "bistable band"}}
	}
	if r.Capacity > 0 {
		f.Marks = append(f.Marks, report.Mark{X: r.Capacity, Label: "capacity " + fmtRate(r.Capacity) + " rps"})
		if r.Retried < r.Capacity*0.999 {
			f.Marks = append(f.Marks, report.Mark{X: r.Retried, Label: "capacity if every call retries: " + fmtRate(r.Retried) + " rps"})
		}
	}
	return f
}

// binMeans is the mean of value over the points of branch in each of
// r's windows (NaN in an empty one): the band's windows, so that the
// goodput's are the band's own means.
func binMeans(r *Result, branch string, value func(Point) float64) []float64 {
	ss := make([]Sample, 0, len(r.Points))
	for _, p := range r.Points {
		ss = append(ss, Sample{Offered: p.Offered, Goodput: value(p), Branch: p.Branch})
	}
	b := FindBand(ss, r.Ramp.From, r.Ramp.To, r.Bins, r.Threshold)
	out := make([]float64, len(b.Bins))
	for k, bin := range b.Bins {
		out[k] = bin.Up
		if branch == Down {
			out[k] = bin.Down
		}
	}
	return out
}

package figures

import (
	"fmt"
	"slices"
	"time"

	"github.com/ressim/ressim/sim/metrics"
	"github.com/ressim/ressim/sim/report"
	"github.com/ressim/ressim/sim/topology"
)

// Named is a figure and the file name it is written to ("overview.png",
// "timeline-<service>.png").
type Named struct {
	File   string
	Figure report.Figure
}

// Default returns the default plots of a run: an overview (what the users
// got, the load each service saw, how full each service was) and one
// timeline per service (its load, occupancy and latency). Fault windows
// are shaded in every panel, and timed actions marked by a dashed line
// at their instants (ActionMarks).
func Default(res *topology.Result) []Named { return Variant(res, "") }

// Variant returns the default plots of one variant's run (Default), the
// variant named in the titles when it is not empty.
func Variant(res *topology.Result, variant string) []Named {
	fp := newParts(res)
	title := res.Name + ": " + finding(res)
	if variant != "" {
		title = res.Name + " (" + variant + "): " + finding(res)
	}
	figs := []Named{fp.overview(title)}
	for _, s := range res.Services {
		figs = append(figs, fp.sr.serviceTimeline(s, fp.subtitle, fp.spans, fp.marks))
	}
	return figs
}

// figureParts is what every default figure of a result shares: the series
// reader, the shaded spans, the actions' marks and the subtitle.
type figureParts struct {
	sr       *seriesReader
	spans    []report.Span
	marks    []report.Mark
	subtitle string
}

func newParts(res *topology.Result) figureParts {
	sr := newSeriesReader(res)
	return figureParts{sr: sr, spans: FaultSpans(res), marks: ActionMarks(res),
		subtitle: fmt.Sprintf("seed %d, values per %v interval", res.Seed, sr.ts.Interval())}
}

// Overview is res's overview figure alone, titled title: what a live
// view draws of a run still under way.
func Overview(res *topology.Result, title string) Named { return newParts(res).overview(title) }

// overview is the overview figure, titled title.
func (fp figureParts) overview(title string) Named {
	return Named{File: "overview.png", Figure: report.Figure{
		Title:    title,
		Subtitle: fp.subtitle,
		Spans:    fp.spans,
		Marks:    fp.marks,
		Panels:   fp.sr.overviewPanels(),
	}}
}

// FaultSpans are the shaded spans of res's figures, in seconds of
// simulated time: the warm-up, every fault window (an instantaneous fault,
// a cache flush, gets a thin band, 1/200 of the run) and every load surge.
func FaultSpans(res *topology.Result) []report.Span {
	var spans []report.Span
	if res.Warmup > 0 {
		spans = append(spans, report.Span{From: 0, To: res.Warmup.Seconds(), Label: "warm-up"})
	}
	thin := res.Duration.Seconds() / 200
	for _, f := range res.Faults {
		from, to := f.Start.Seconds(), f.End.Seconds()
		if to <= from {
			to = from + thin
		}
		spans = append(spans, report.Span{From: from, To: to, Label: f.Label})
	}
	return append(spans, surgeSpans(res)...)
}

// ActionMarks are the timed actions of res as marks of the time axis, in
// seconds of simulated time: a dashed vertical line across every panel at
// each action's instant, labelled with its label (the labels of the
// actions at one instant joined, each once).
func ActionMarks(res *topology.Result) []report.Mark {
	var marks []report.Mark
	var seen []string
	for _, a := range res.Actions {
		x := a.At.Seconds()
		if n := len(marks); n > 0 && marks[n-1].X == x {
			if !slices.Contains(seen, a.Label) {
				marks[n-1].Label += "; " + a.Label
				seen = append(seen, a.Label)
			}
			continue
		}
		marks = append(marks, report.Mark{X: x, Label: a.Label})
		seen = append(seen[:0], a.Label)
	}
	return marks
}

// surgeSpans shades the stretches of a client's schedule whose rate is
// above the schedule's first: load surges that are not faults.
func surgeSpans(res *topology.Result) []report.Span {
	var spans []report.Span
	for _, c := range res.Clients {
		pts := c.Schedule
		for i, p := range pts {
			if i == 0 || !(p.Rate > 1.2*pts[0].Rate) {
				continue
			}
			to := res.Duration
			if i+1 < len(pts) {
				to = pts[i+1].At
			}
			spans = append(spans, report.Span{From: p.At.Seconds(), To: to.Seconds(),
				Label: fmt.Sprintf("%s surge %.0f/s", c.Name, p.Rate)})
		}
	}
	return spans
}

// finding is what an overview's title says the run found: the first
// fault's verdict in words.
func finding(res *topology.Result) string {
	if len(res.Faults) == 0 {
		return "no fault injected; " + answered(res)
	}
	f := res.Faults[0]
	r := f.Recovery
	switch r.Verdict {
	case topology.VerdictLockedIn:
		return fmt.Sprintf("locked in after %q, never recovered", f.Label)
	case topology.VerdictRelapsed:
		return fmt.Sprintf("back after %q, relapsed at %.0f s and stayed down", f.Label, r.Relapsed.Seconds())
	case topology.VerdictRecovered:
		if r.Time == 0 {
			return fmt.Sprintf("recovered as soon as %q ended", f.Label)
		}
		return fmt.Sprintf("recovered %v after %q ended", r.Time.Round(100*time.Millisecond), f.Label)
	case topology.VerdictUnaffected:
		return fmt.Sprintf("unaffected by %q", f.Label)
	}
	// No verdict (no healthy stretch before the fault, say): say what
	// the users got instead.
	return fmt.Sprintf("during and after %q, %s", f.Label, answered(res))
}

// answered says what share of the users' requests got a full answer in
// time, all clients.
func answered(res *topology.Result) string {
	var sent, good uint64
	for _, c := range res.Clients {
		sent, good = sent+c.Sent, good+c.SentGood
	}
	if sent == 0 {
		return "no user requests sent"
	}
	return fmt.Sprintf("users got %.0f%% of their requests answered in full and in time", 100*float64(good)/float64(sent))
}

// stateBands turns a sampled breaker state (0 closed, 1 half-open, 2
// open, at each interval's end) into coloured bands: the fallback when
// the event log dropped events (breakerBands).
func stateBands(x []float64, ts *metrics.TimeSeries, v []float64) []report.StateBand {
	names := []string{"closed", "half-open", "open"}
	var bands []report.StateBand
	for i := range v {
		from := float64(ts.Start(i)) / 1e9
		st := names[min(max(int(v[i]), 0), 2)]
		if n := len(bands); n > 0 && bands[n-1].State == st {
			bands[n-1].To = x[i]
			continue
		}
		bands = append(bands, report.StateBand{From: from, To: x[i], State: st})
	}
	return bands
}

package fit

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/fit/observe"
	"github.com/ressim/ressim/sim/fit/steady"
	"github.com/ressim/ressim/sim/telemetry"
)

// Window is the time range a fit reads: [Start, End] in milliseconds
// since the Unix epoch, both sample times of the series read.
type Window struct {
	Start, End int64
	// Rule says how the window was chosen (the MSER-5 truncation of the
	// total request rate, the user's --window, or all of one scrape).
	Rule string
	// None is true when no metrics were read (a fit from traces alone).
	None bool
}

// Seconds returns the window's length in seconds.
func (w Window) Seconds() float64 { return float64(w.End-w.Start) / 1e3 }

// String formats the window as RFC 3339 times and its length.
func (w Window) String() string {
	if w.None {
		return "no time range (no metrics)"
	}
	if w.Start == 0 && w.End == 0 {
		return "one scrape without timestamps"
	}
	f := func(ms int64) string { return time.UnixMilli(ms).UTC().Format(time.RFC3339Nano) }
	return fmt.Sprintf("%s..%s (%gs)", f(w.Start), f(w.End), w.Seconds())
}

// traffic is the total request count over time: the sum of the clients'
// request counters, else of the services' (a system whose entry traffic
// has no client series), at the times all of them share.
func traffic(obs *observe.Observations) []telemetry.Point {
	var cs []*observe.Counter
	for i := range obs.Clients {
		if c := obs.Clients[i].Requests; c != nil {
			cs = append(cs, c)
		}
	}
	if len(cs) == 0 {
		for i := range obs.Services {
			if c := obs.Services[i].Requests; c != nil {
				cs = append(cs, c)
			}
		}
	}
	var sum []telemetry.Point
	for k, c := range cs {
		if k == 0 {
			sum = append([]telemetry.Point(nil), c.Points...)
			continue
		}
		sum = addAligned(sum, c.Points)
	}
	return sum
}

// addAligned adds b to a at the times both have; other times are dropped.
func addAligned(a, b []telemetry.Point) []telemetry.Point {
	var out []telemetry.Point
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i].T < b[j].T:
			i++
		case b[j].T < a[i].T:
			j++
		default:
			out = append(out, telemetry.Point{T: a[i].T, V: a[i].V + b[j].V})
			i++
			j++
		}
	}
	return out
}

// chooseWindow picks the steady window of the total traffic: MSER-5 on
// its per-interval rates, or the user's range (snapped onto sample
// times). One sample time gives a window of length 0: totals since the
// processes started, no rates.
func chooseWindow(obs *observe.Observations, user *Window) (Window, error) {
	pts := traffic(obs)
	if len(pts) == 0 {
		return Window{}, fmt.Errorf("fit: no request counter to find the traffic in (looked for client and service request counters)")
	}
	if user != nil {
		var w Window
		found := false
		for _, p := range pts {
			if p.T >= user.Start && p.T <= user.End {
				if !found {
					w.Start = p.T
				}
				w.End = p.T
				found = true
			}
		}
		if !found || w.End == w.Start {
			return Window{}, fmt.Errorf("fit: the window %s holds fewer than two samples of the traffic (samples span %s)",
				Window{Start: user.Start, End: user.End}, Window{Start: pts[0].T, End: pts[len(pts)-1].T})
		}
		w.Rule = "the window given (--window), snapped onto sample times"
		return w, nil
	}
	if len(pts) == 1 {
		return Window{Start: pts[0].T, End: pts[0].T, Rule: "one scrape: totals since each process started; no rates"}, nil
	}
	rates := make([]float64, len(pts)-1)
	for i := range rates {
		dt := float64(pts[i+1].T-pts[i].T) / 1e3
		d := pts[i+1].V - pts[i].V
		if d < 0 { // a reset the preset did not undo: count from zero
			d = pts[i+1].V
		}
		rates[i] = d / dt
	}
	start, end, err := steady.Window(rates)
	if err != nil || end-start < 1 {
		return Window{Start: pts[0].T, End: pts[len(pts)-1].T,
			Rule: fmt.Sprintf("all %d samples (no steady window found: %v)", len(pts), err)}, nil
	}
	return Window{Start: pts[start].T, End: pts[end].T,
		Rule: fmt.Sprintf("MSER-5 truncation of the total request rate: intervals %d..%d of %d", start+1, end, len(rates))}, nil
}

package figures

import (
	"strconv"
	"strings"

	"github.com/ressim/ressim/sim/report"
	"github.com/ressim/ressim/sim/topology"
)

// The overview's bands and markers are drawn from the run's event log
// (topology.EventLog), not from the interval samples: every transition
// shows at its instant, however short the state it ends.

// breakerStateName is the figure's name of a breaker state as the log
// writes it ("half_open" is drawn "half-open", which has a fixed colour).
func breakerStateName(s string) string { return strings.ReplaceAll(s, "_", "-") }

// breakerBands are the states of site's breaker over the run, from its
// logged transitions: closed from 0 to the first, then each state from
// its transition to the next, the last to the end of the run. ok is
// false when the log dropped events (its cap reached): the bands would
// then stop telling the truth, and the caller draws the samples instead.
func breakerBands(res *topology.Result, site string) (bands []report.StateBand, ok bool) {
	if res.EventLog.Dropped > 0 {
		return nil, false
	}
	from, state := 0.0, "closed"
	for _, e := range res.EventLog.Events {
		if e.Kind != topology.EventBreaker || e.Subject != site {
			continue
		}
		at := e.At.Seconds()
		bands = append(bands, report.StateBand{From: from, To: at, State: state})
		from, state = at, breakerStateName(e.To)
	}
	bands = append(bands, report.StateBand{From: from, To: res.Duration.Seconds(), State: state})
	return bands, true
}

// probeMarkers mark each half-open probe of site's breaker that came
// back: "probe passed" or "probe failed".
func probeMarkers(res *topology.Result, site string) []report.Marker {
	var out []report.Marker
	for _, e := range res.EventLog.Events {
		if e.Kind == topology.EventProbe && e.Subject == site {
			tone := report.Good
			if e.To == "failed" {
				tone = report.Bad
			}
			out = append(out, report.Marker{At: e.At.Seconds(), Label: "probe " + e.To, Tone: tone})
		}
	}
	return out
}

// instanceMarkers mark the instants instances left or rejoined their
// callers' balancers: ejected and returned by outlier detection, turned
// unready and ready by their readiness probe, restarted by their
// liveness probe. Labels name the service ("api[3]" is "api ejected"), so
// the legend has one entry per service and change, not per instance.
func instanceMarkers(res *topology.Result) []report.Marker {
	var out []report.Marker
	for _, e := range res.EventLog.Events {
		what, tone := "", report.Bad
		switch {
		case e.Kind == topology.EventEjection && e.To == "ejected":
			what = "instance ejected"
		case e.Kind == topology.EventEjection:
			what, tone = "instance returned", report.Good
		case e.Kind == topology.EventReadiness && e.To == "unready":
			what = "instance unready"
		case e.Kind == topology.EventReadiness:
			what, tone = "instance ready", report.Good
		case e.Kind == topology.EventLiveness && e.To == "restarting":
			what = "instance restarted"
		case e.Kind == topology.EventLiveness:
			what, tone = "instance back", report.Good
		default:
			continue
		}
		svc, _, _ := strings.Cut(e.Subject, "[")
		out = append(out, report.Marker{At: e.At.Seconds(), Label: svc + " " + what, Tone: tone})
	}
	return out
}

// limitMarkers mark the logged moves of each instance's adaptive limit
// (thinned to steps of topology.LimitStep): cuts as bad news, raises as
// good.
func limitMarkers(res *topology.Result) []report.Marker {
	var out []report.Marker
	for _, e := range res.EventLog.Events {
		if e.Kind != topology.EventLimit {
			continue
		}
		from, err1 := strconv.Atoi(e.From)
		to, err2 := strconv.Atoi(e.To)
		if err1 != nil || err2 != nil {
			continue
		}
		svc, _, _ := strings.Cut(e.Subject, "[")
		m := report.Marker{At: e.At.Seconds(), Label: svc + " limit raised", Tone: report.Good}
		if to < from {
			m.Label, m.Tone = svc+" limit cut", report.Bad
		}
		out = append(out, m)
	}
	return out
}

package playground

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/alerts"
	"github.com/ressim/ressim/sim/alerts/promql"
	"github.com/ressim/ressim/sim/topology"
)

// GameAlert is one alert instance of a game day's rules as the page shows
// it: its name, its labels (as `ressim alerts` writes them, "" for
// none), its summary annotation (not templated) and the spans in which it
// was active.
type GameAlert struct {
	Name        string           `json:"name"`
	Labels      string           `json:"labels,omitempty"`
	Summary     string           `json:"summary,omitempty"`
	Activations []GameActivation `json:"activations"`
}

// GameActivation is one span in which an alert was active, in seconds of
// simulated time at rule evaluations: pending from PendingS, firing from
// FiringS (nil if it never fired), inactive again at ResolvedS (nil if
// still active at the last evaluation).
type GameActivation struct {
	PendingS  float64  `json:"pending_s"`
	FiringS   *float64 `json:"firing_s"`
	ResolvedS *float64 `json:"resolved_s"`
}

// gameAlerts evaluates rules (a Prometheus rules file's text) on res
// every ev (0: the default, alerts.DefaultEvalInterval) with the page's
// PromQL subset (package promql), on the series ressim exports, as
// promtool would see them (alerts.SubsetInput). The page cannot run
// promtool; TestSubsetMatchesPromtool checks the subset against it.
func gameAlerts(rules []byte, res *topology.Result, ev time.Duration) ([]GameAlert, error) {
	if ev <= 0 {
		ev = alerts.DefaultEvalInterval
	}
	rf, err := promql.ParseRules(rules)
	if err != nil {
		return nil, fmt.Errorf("alert rules: %w", err)
	}
	series, end, err := alerts.SubsetInput(res, ev)
	if err != nil {
		return nil, fmt.Errorf("alert rules: %w", err)
	}
	tls, err := promql.Evaluate(rf, series, ev, end)
	if err != nil {
		return nil, fmt.Errorf("alert rules: %w", err)
	}
	out := make([]GameAlert, 0, len(tls))
	for _, tl := range tls {
		a := GameAlert{Name: tl.Name, Summary: summaryOf(rf, tl.Name), Activations: []GameActivation{}}
		if id := tl.ID(); id != tl.Name {
			a.Labels = id[len(tl.Name):]
		}
		for _, e := range tl.Episodes {
			x := GameActivation{PendingS: e.Pending.Seconds()}
			if e.Fired {
				x.FiringS = new(e.Firing.Seconds())
			}
			if e.Resolved {
				x.ResolvedS = new(e.End.Seconds())
			}
			a.Activations = append(a.Activations, x)
		}
		out = append(out, a)
	}
	return out, nil
}

// summaryOf is the summary annotation of the first alerting rule named
// name, "" without one.
func summaryOf(rf *promql.RuleFile, name string) string {
	for _, g := range rf.Groups {
		for _, r := range g.Rules {
			if r.Alert != name {
				continue
			}
			for _, l := range r.Annotations {
				if l.Name == "summary" {
					return l.Value
				}
			}
			return ""
		}
	}
	return ""
}

package promql

import (
	"cmp"
	"slices"
	"strings"
	"time"
)

// Episode is one span in which an alert instance was active: pending from
// Pending, firing from Firing if Fired, inactive again at End if
// Resolved (else still active at the last evaluation). Times are
// evaluation times.
type Episode struct {
	Pending  time.Duration
	Fired    bool
	Firing   time.Duration
	Resolved bool
	End      time.Duration
}

// AlertTimeline is an alert instance's episodes.
type AlertTimeline struct {
	Name string
	// Labels are the instance's labels, alertname aside.
	Labels   Labels
	Episodes []Episode
}

// ID renders the instance as name{label="value",...}, labels sorted by
// name (as sim/alerts names alerts).
func (a AlertTimeline) ID() string {
	if len(a.Labels) == 0 {
		return a.Name
	}
	parts := make([]string, len(a.Labels))
	for i, l := range a.Labels {
		parts[i] = l.Name + `="` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(l.Value) + `"`
	}
	return a.Name + "{" + strings.Join(parts, ",") + "}"
}

// visibleAlert is an alert instance as ALERTS shows it at an evaluation.
type visibleAlert struct {
	name  string
	lbls  Labels // without alertname
	state AlertState
}

type visibleAlerts map[string]visibleAlert

// add records a as active; of two rules giving one instance, firing
// wins (as it does in sim/alerts' reading of ALERTS).
func (v visibleAlerts) add(a *alertInstance) {
	lbls := a.lbls.without("alertname")
	if len(lbls) == 0 {
		lbls = nil
	}
	va := visibleAlert{name: a.lbls.Get("alertname"), lbls: lbls, state: a.state}
	k := va.name + "\xff" + lbls.key()
	if old, ok := v[k]; !ok || old.state < va.state {
		v[k] = va
	}
}

// timelines turns the active alerts at each evaluation into episodes.
type timelines struct {
	byKey map[string]*AlertTimeline // lookup only; done sorts
	open  map[string]bool           // an episode is open; lookup only
}

func newTimelines() *timelines {
	return &timelines{byKey: make(map[string]*AlertTimeline), open: make(map[string]bool)}
}

func (tl *timelines) step(visible visibleAlerts, t time.Duration) {
	for k := range tl.open {
		if _, ok := visible[k]; !ok {
			eps := tl.byKey[k].Episodes
			eps[len(eps)-1].Resolved, eps[len(eps)-1].End = true, t
			delete(tl.open, k)
		}
	}
	for k, va := range visible {
		a, ok := tl.byKey[k]
		if !ok {
			a = &AlertTimeline{Name: va.name, Labels: va.lbls}
			tl.byKey[k] = a
		}
		if !tl.open[k] {
			a.Episodes = append(a.Episodes, Episode{Pending: t})
			tl.open[k] = true
		}
		if e := &a.Episodes[len(a.Episodes)-1]; va.state == Firing && !e.Fired {
			e.Fired, e.Firing = true, t
		}
	}
}

func (tl *timelines) done() []AlertTimeline {
	out := make([]AlertTimeline, 0, len(tl.byKey))
	for _, a := range tl.byKey {
		out = append(out, *a)
	}
	slices.SortFunc(out, func(a, b AlertTimeline) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), Compare(a.Labels, b.Labels))
	})
	return out
}

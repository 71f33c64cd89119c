package promql

import (
	"slices"
	"time"
)

// AlertState is an alert instance's state at an evaluation.
type AlertState int

// The states of an alert instance.
const (
	Inactive AlertState = iota
	Pending
	Firing
)

func (s AlertState) String() string {
	return [...]string{"inactive", "pending", "firing"}[s]
}

// alertInstance is one label set's state in an alerting rule, as
// Prometheus 2.42's rules.Alert.
type alertInstance struct {
	lbls            Labels // with alertname
	state           AlertState
	activeAt        int64
	resolvedAt      int64
	keepFiringSince int64 // -1: not keeping
}

// resolvedRetention is how long Prometheus keeps a resolved alert (to
// resend it); it only matters to when the instance is forgotten.
const resolvedRetention = 15 * time.Minute

// alertRule is an alerting rule's state across evaluations.
type alertRule struct {
	rule   *Rule
	active map[string]*alertInstance // by label key; iterated in sorted key order
}

// eval updates the rule's instances with the expression's result vec at
// ts, as rules.AlertingRule.Eval does: a new label set goes pending (and
// fires at once without for), pending fires once for has passed since it
// went active, an instance missing from the result goes inactive (after
// keep_firing_for if firing), and an inactive one that comes back starts
// afresh. It returns the instances active after the update, in label
// order.
func (ar *alertRule) eval(vec []sample, ts int64) ([]*alertInstance, error) {
	r := ar.rule
	result := make(map[string]Labels, len(vec)) // lookup only
	for _, s := range vec {
		ls := s.lbls.dropName()
		for _, l := range r.Labels {
			ls = ls.with(l.Name, l.Value)
		}
		ls = ls.with("alertname", r.Alert)
		k := ls.key()
		if _, dup := result[k]; dup {
			return nil, errorf("vector contains metrics with the same labelset after applying alert labels")
		}
		result[k] = ls
	}
	for k, ls := range result {
		if a, ok := ar.active[k]; ok && a.state != Inactive {
			continue
		}
		ar.active[k] = &alertInstance{lbls: ls, state: Pending, activeAt: ts, keepFiringSince: -1}
	}
	keys := make([]string, 0, len(ar.active))
	for k := range ar.active {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var out []*alertInstance
	for _, k := range keys {
		a := ar.active[k]
		if _, ok := result[k]; !ok {
			keepFiring := false
			if a.state == Firing && r.KeepFiringFor > 0 {
				if a.keepFiringSince < 0 {
					a.keepFiringSince = ts
				}
				keepFiring = ts-a.keepFiringSince < r.KeepFiringFor.Milliseconds()
			}
			if a.state == Pending || a.state == Inactive && ts-a.resolvedAt > resolvedRetention.Milliseconds() {
				delete(ar.active, k)
			}
			if a.state != Inactive && !keepFiring {
				a.state = Inactive
				a.resolvedAt = ts
			}
			if !keepFiring {
				continue
			}
		} else {
			a.keepFiringSince = -1
		}
		if a.state == Pending && ts-a.activeAt >= r.For.Milliseconds() {
			a.state = Firing
		}
		out = append(out, a)
	}
	return out, nil
}

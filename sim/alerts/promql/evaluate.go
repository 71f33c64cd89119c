package promql

import (
	"fmt"
	"slices"
	"time"
)

func errorf(format string, args ...any) error {
	return fmt.Errorf("promql: "+format, args...)
}

// MaxSteps bounds the evaluations of one run.
const MaxSteps = 1_000_000

// Options control Run.
type Options struct {
	// Interval is the rule evaluation interval: every group is evaluated
	// at 0, Interval, 2*Interval, ... up to End, as promtool test rules
	// does with its evaluation_interval.
	Interval, End time.Duration
	// Limits bound the evaluation; zero fields take DefaultLimits'.
	Limits Limits
}

// Result is what Run found.
type Result struct {
	// Alerts are the alert instances that were ever active, sorted by
	// name then labels.
	Alerts []AlertTimeline
	// Recorded are the series the recording rules wrote (staleness
	// markers left out), in the order they were first written.
	Recorded []Series
	// Cost is the samples the evaluation visited.
	Cost int64
}

// Evaluate evaluates the rules on the series every interval from 0 to
// end and returns every alert instance's episodes.
func Evaluate(rules *RuleFile, series []Series, interval, end time.Duration) ([]AlertTimeline, error) {
	res, err := Run(rules, series, Options{Interval: interval, End: end})
	if err != nil {
		return nil, err
	}
	return res.Alerts, nil
}

// Run evaluates the rules on the series: at every evaluation time, every
// group in order, every rule of a group in order; a recording rule's
// result is written at that time (so later rules see it), with
// staleness markers for the series it no longer returns; an alerting
// rule updates its instances and writes ALERTS and ALERTS_FOR_STATE, as
// Prometheus does.
func Run(rules *RuleFile, series []Series, opt Options) (*Result, error) {
	if opt.Interval <= 0 || opt.Interval%time.Millisecond != 0 {
		return nil, errorf("evaluation interval %v is not a positive whole number of milliseconds", opt.Interval)
	}
	if opt.End < 0 || opt.End/opt.Interval >= MaxSteps {
		return nil, errorf("evaluating up to %v every %v: not within 0 to %d evaluations", opt.End, opt.Interval, MaxSteps)
	}
	lim := opt.Limits.orDefault()
	st, err := newStorage(series, lim)
	if err != nil {
		return nil, err
	}
	inputs := len(st.series)
	ev := &evaluator{st: st, cache: make(map[*VectorSelector]*selCache)}
	type ruleState struct {
		alert *alertRule
		prev  map[string]Labels // series written at the previous evaluation
	}
	states := make([][]ruleState, len(rules.Groups))
	for gi, g := range rules.Groups {
		states[gi] = make([]ruleState, len(g.Rules))
		for ri := range g.Rules {
			if g.Rules[ri].Alert != "" {
				states[gi][ri].alert = &alertRule{rule: &g.Rules[ri], active: make(map[string]*alertInstance)}
			}
		}
	}
	tl := newTimelines()
	for t := time.Duration(0); t <= opt.End; t += opt.Interval {
		ts := t.Milliseconds()
		visible := make(visibleAlerts) // this evaluation's ALERTS; lookup only
		for gi := range rules.Groups {
			g := &rules.Groups[gi]
			for ri := range g.Rules {
				r, rs := &g.Rules[ri], &states[gi][ri]
				v, err := ev.instant(r.Parsed, ts)
				if err != nil {
					return nil, fmt.Errorf("group %q, %s at %v: %w", g.Name, r.Name(), t, err)
				}
				vec := v.vec
				if v.scalar {
					vec = []sample{{nil, v.s}}
				}
				var out []sample
				if rs.alert == nil {
					if out, err = recordSamples(r, vec); err != nil {
						return nil, fmt.Errorf("group %q, %s at %v: %w", g.Name, r.Name(), t, err)
					}
				} else {
					act, err := rs.alert.eval(vec, ts)
					if err != nil {
						return nil, fmt.Errorf("group %q, %s at %v: %w", g.Name, r.Name(), t, err)
					}
					for _, a := range act {
						out = append(out,
							sample{a.lbls.with(MetricName, "ALERTS").with("alertstate", a.state.String()), 1},
							sample{a.lbls.with(MetricName, "ALERTS_FOR_STATE"), float64(a.activeAt / 1000)})
						visible.add(a)
					}
				}
				// Every rule evaluation costs, even one of a constant:
				// the budget bounds a file of many cheap rules too.
				if err := ev.account(1 + len(out)); err != nil {
					return nil, err
				}
				if rs.prev, err = write(st, out, rs.prev, ts); err != nil {
					return nil, err
				}
			}
		}
		tl.step(visible, t)
	}
	res := &Result{Alerts: tl.done(), Cost: ev.cost}
	for _, ms := range st.series[inputs:] {
		if ms.lbls.Get(MetricName) == "ALERTS" || ms.lbls.Get(MetricName) == "ALERTS_FOR_STATE" {
			continue
		}
		s := Series{Labels: ms.lbls}
		for i := range ms.t {
			if !isStale(ms.v[i]) {
				s.Points = append(s.Points, Point{time.Duration(ms.t[i]) * time.Millisecond, ms.v[i]})
			}
		}
		res.Recorded = append(res.Recorded, s)
	}
	return res, nil
}

// recordSamples names a recording rule's result and adds its labels.
func recordSamples(r *Rule, vec []sample) ([]sample, error) {
	out := make([]sample, len(vec))
	seen := make(map[string]bool, len(vec)) // lookup only
	for i, s := range vec {
		ls := s.lbls.with(MetricName, r.Record)
		for _, l := range r.Labels {
			ls = ls.with(l.Name, l.Value)
		}
		if k := ls.key(); seen[k] {
			return nil, errorf("vector contains metrics with the same labelset after applying rule labels")
		} else {
			seen[k] = true
		}
		out[i] = sample{ls, s.v}
	}
	return out, nil
}

// write writes a rule's samples at ts, and staleness markers for the
// series of prev it no longer returns; it returns this evaluation's
// series.
func write(st *storage, out []sample, prev map[string]Labels, ts int64) (map[string]Labels, error) {
	cur := make(map[string]Labels, len(out)) // lookup only
	for _, s := range out {
		cur[s.lbls.key()] = s.lbls
		if err := st.write(s.lbls, ts, s.v); err != nil {
			return nil, err
		}
	}
	var gone []Labels
	for k, ls := range prev {
		if _, ok := cur[k]; !ok {
			gone = append(gone, ls)
		}
	}
	slices.SortFunc(gone, Compare)
	for _, ls := range gone {
		if err := st.write(ls, ts, staleNaN); err != nil {
			return nil, err
		}
	}
	return cur, nil
}

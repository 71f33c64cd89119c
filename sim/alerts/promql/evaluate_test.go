package promql

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

func mustRules(t *testing.T, text string) *RuleFile {
	t.Helper()
	rf, err := ParseRules([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return rf
}

// TestAlertStateMachine: step tables of inactive -> pending -> firing ->
// resolved, every 10 s, on a series x whose values make x > 0 hold or
// not at each evaluation.
func TestAlertStateMachine(t *testing.T) {
	s := time.Second
	nan := math.NaN()
	for _, c := range []struct {
		name  string
		rule  string // for / keep_firing_for lines
		x     []float64
		want  []Episode
		other string
	}{
		{"for 30s: fires after 30s pending, resolves when false", "for: 30s", []float64{0, 1, 1, 1, 1, 0, 1, 0},
			[]Episode{{Pending: 10 * s, Fired: true, Firing: 40 * s, Resolved: true, End: 50 * s},
				{Pending: 60 * s, Resolved: true, End: 70 * s}}, ""},
		{"no for: pending and firing at once", "", []float64{1, 0, 1},
			[]Episode{{Pending: 0, Fired: true, Firing: 0, Resolved: true, End: 10 * s},
				{Pending: 20 * s, Fired: true, Firing: 20 * s}}, ""},
		{"pending interrupted restarts for", "for: 20s", []float64{1, 1, 0, 1, 1, 1},
			[]Episode{{Pending: 0, Resolved: true, End: 20 * s},
				{Pending: 30 * s, Fired: true, Firing: 50 * s}}, ""},
		{"keep_firing_for holds a firing alert", "keep_firing_for: 20s", []float64{1, 0, 0, 0, 0},
			[]Episode{{Pending: 0, Fired: true, Firing: 0, Resolved: true, End: 30 * s}}, ""},
		{"keep_firing_for does not hold a pending one", "for: 30s\n        keep_firing_for: 1m", []float64{1, 0, 0},
			[]Episode{{Pending: 0, Resolved: true, End: 10 * s}}, ""},
		// A gauge that stops being reported stays visible for the 5m
		// lookback.
		{"lookback", "", append([]float64{1}, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan),
			[]Episode{{Pending: 0, Fired: true, Firing: 0, Resolved: true, End: 310 * s}}, ""},
	} {
		rf := mustRules(t, "groups:\n  - name: g\n    rules:\n      - alert: X\n        expr: x > 0\n        "+c.rule+"\n        labels: {severity: page}\n")
		in := []Series{series(NewLabels(MetricName, "x", "job", "j"), 10*s, c.x...)}
		end := time.Duration(len(c.x)-1) * 10 * s
		got, err := Evaluate(rf, in, 10*s, end)
		if err != nil {
			t.Fatal(err)
		}
		want := []AlertTimeline{{Name: "X", Labels: NewLabels("job", "j", "severity", "page"), Episodes: c.want}}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, want)
		}
	}
}

// TestRecordingFeedsLaterRules: a recording rule's result is visible to
// the rules after it at the same evaluation, and to the groups after its
// own; when it stops, its staleness marker ends the alert at once
// instead of 5m later.
func TestRecordingFeedsLaterRules(t *testing.T) {
	s := time.Second
	rf := mustRules(t, `groups:
  - name: a
    rules:
      - record: x:high
        expr: x > 5
        labels: {tier: one}
      - alert: High
        expr: x:high
  - name: b
    rules:
      - alert: HighSeenLater
        expr: count(ALERTS{alertname="High", alertstate="firing"}) > 0
`)
	in := []Series{series(NewLabels(MetricName, "x"), 10*s, 1, 9, 9, 1, 1)}
	res, err := Run(rf, in, Options{Interval: 10 * s, End: 40 * s})
	if err != nil {
		t.Fatal(err)
	}
	want := []AlertTimeline{
		{Name: "High", Labels: NewLabels("tier", "one"), Episodes: []Episode{{Pending: 10 * s, Fired: true, Firing: 10 * s, Resolved: true, End: 30 * s}}},
		{Name: "HighSeenLater", Episodes: []Episode{{Pending: 10 * s, Fired: true, Firing: 10 * s, Resolved: true, End: 30 * s}}},
	}
	if !reflect.DeepEqual(res.Alerts, want) {
		t.Errorf("got %+v\nwant %+v", res.Alerts, want)
	}
	wantRec := []Series{{Labels: NewLabels(MetricName, "x:high", "tier", "one"), Points: []Point{{10 * s, 9}, {20 * s, 9}}}}
	if !reflect.DeepEqual(res.Recorded, wantRec) {
		t.Errorf("recorded %+v, want %+v", res.Recorded, wantRec)
	}
}

// TestSortedOutput: instances come sorted by name, then labels.
func TestSortedOutput(t *testing.T) {
	rf := mustRules(t, "groups:\n  - name: g\n    rules:\n      - alert: B\n        expr: x\n      - alert: A\n        expr: x\n")
	in := []Series{
		series(NewLabels(MetricName, "x", "k", "2"), time.Second, 1),
		series(NewLabels(MetricName, "x", "k", "1"), time.Second, 1),
	}
	got, err := Evaluate(rf, in, time.Second, 0)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, a := range got {
		ids = append(ids, a.ID())
	}
	if want := []string{`A{k="1"}`, `A{k="2"}`, `B{k="1"}`, `B{k="2"}`}; !reflect.DeepEqual(ids, want) {
		t.Errorf("order %v, want %v", ids, want)
	}
}

// TestBudgets: series, points and cost are bounded, with clear errors.
func TestBudgets(t *testing.T) {
	s := time.Second
	rf := mustRules(t, "groups:\n  - name: g\n    rules:\n      - record: r\n        expr: sum_over_time(x[1h])\n")
	vals := make([]float64, 1000)
	in := []Series{series(NewLabels(MetricName, "x"), s, vals...), series(NewLabels(MetricName, "y"), s, 1)}
	for _, c := range []struct {
		lim  Limits
		want string
	}{
		{Limits{MaxSeries: 1}, "2 series, more than the 1 allowed"},
		{Limits{MaxPoints: 500}, "more than 500 points"},
		{Limits{MaxCost: 10_000}, "more than 10000 samples (the cost budget)"},
	} {
		_, err := Run(rf, in, Options{Interval: s, End: 999 * s, Limits: c.lim})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.lim, err, c.want)
		}
	}
	// A rule of a constant visits no sample, but costs its evaluation.
	constant := mustRules(t, "groups:\n  - name: g\n    rules:\n      - alert: A\n        expr: 1\n")
	if _, err := Run(constant, nil, Options{Interval: s, End: 999 * s, Limits: Limits{MaxCost: 500}}); err == nil || !strings.Contains(err.Error(), "cost budget") {
		t.Errorf("1000 evaluations of a constant within a cost of 500: %v", err)
	}
	if _, err := Run(rf, in, Options{Interval: time.Millisecond, End: time.Hour}); err == nil || !strings.Contains(err.Error(), "evaluations") {
		t.Errorf("3.6 million evaluations: %v", err)
	}
}

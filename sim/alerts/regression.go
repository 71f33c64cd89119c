package alerts

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// WritePromtoolTest writes to path a promtool unit-test file for the run
// the report describes: its series as input_series, and alert_rule_test
// expectations for every alert of the rules file at the evaluations where
// its firing set changes, one evaluation before each, and the end, with
// the labels and annotations promtool reported there. The rules file is
// referenced relative to path's directory. The file is then run, and an
// error returned unless promtool passes it.
func (r *Report) WritePromtoolTest(ctx context.Context, path string) error {
	tf, err := newTestFile(r.run, r.rules, r.EvalInterval)
	if err != nil {
		return err
	}
	tf.end = r.Duration
	times := r.keyTimes()
	for _, name := range r.Alerts {
		for _, t := range times {
			tf.alerts = append(tf.alerts, alertTest{at: t, alertname: name})
		}
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("alerts: %w", err)
	}
	probe, err := os.CreateTemp(dir, ".ressim-probe-*.yml")
	if err != nil {
		return fmt.Errorf("alerts: %w", err)
	}
	probe.Close()
	defer os.Remove(probe.Name())
	out, err := runTest(ctx, tf, probe.Name())
	if err != nil {
		return err
	}
	_, fired, err := parseReport(out)
	if err != nil {
		return fmt.Errorf("alerts: %w", err)
	}
	for i := range tf.alerts {
		a := &tf.alerts[i]
		for _, f := range fired {
			if f.at == a.at && f.alertname == a.alertname {
				a.exp = append(a.exp, f.f)
			}
		}
	}
	if rel, err := filepath.Rel(absDir(dir), r.rules); err == nil {
		tf.rules = rel
	}
	out, err = runTest(ctx, tf, path)
	if err != nil {
		return err
	}
	if bytes.Contains(out, []byte("FAILED:")) {
		return fmt.Errorf("alerts: the generated %s does not pass:\n%s", path, out)
	}
	return nil
}

func absDir(d string) string {
	if a, err := filepath.Abs(d); err == nil {
		return a
	}
	return d
}

// keyTimes are the evaluations where some alert's state changes (an
// episode fires or ends), one evaluation before each, and the end.
func (r *Report) keyTimes() []time.Duration {
	var ts []time.Duration
	add := func(t time.Duration) {
		if t >= 0 && t <= r.Duration {
			ts = append(ts, t)
		}
	}
	for _, e := range r.Episodes {
		if e.Fired {
			add(e.Firing - r.EvalInterval)
			add(e.Firing)
		}
		if e.Resolved {
			add(e.End - r.EvalInterval)
			add(e.End)
		}
	}
	add(r.Duration)
	slices.Sort(ts)
	return slices.Compact(ts)
}

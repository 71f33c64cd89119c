package alerts

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sync"
	"time"

	"github.com/ressim/ressim/internal/input"
	"github.com/ressim/ressim/internal/promtool"
	"github.com/ressim/ressim/sim/alerts/promql"
	"github.com/ressim/ressim/sim/run/runner"
	"github.com/ressim/ressim/sim/topology"
	"gopkg.in/yaml.v3"
)

// DefaultEvalInterval is the rule evaluation interval when
// Options.EvalInterval is 0.
const DefaultEvalInterval = 15 * time.Second

// Options control Evaluate.
type Options struct {
	// Rules is the Prometheus rules file.
	Rules string
	// EvalInterval is the rule evaluation interval (promtool's
	// evaluation_interval: every group is evaluated at every multiple of
	// it, a group's own interval is ignored by promtool test rules); 0
	// means DefaultEvalInterval. It must be a multiple of the run's interval.
	EvalInterval time.Duration
	// Dir, if set, keeps the generated promtool test files there;
	// otherwise a temporary directory is used and removed.
	Dir string
	// Horizon is how long the run may be extended past its end (the
	// same model, its faults unchanged, simulated longer) when an alert
	// that fired is still active there, so that it can resolve; 0 means
	// DefaultHorizon of the rules. NoExtension keeps the run's own
	// duration.
	Horizon     time.Duration
	NoExtension bool
	// Budget bounds the runs together (the incident and the same run
	// without faults); the zero Budget is unbounded. Its Timeout, with
	// ctx, also bounds promtool.
	Budget runner.Budget
}

// MaxRulesSize bounds the rules file (4 MiB): promtool reads it whole
// and so do the alert-name scan and the page's evaluator.
const MaxRulesSize = promql.MaxRulesSize

// Evaluate runs the model cfg, and without faults, and evaluates the rules
// on both with promtool test rules.
func Evaluate(ctx context.Context, cfg topology.Config, opt Options) (*Report, error) {
	rules, err := filepath.Abs(opt.Rules)
	if err != nil {
		return nil, err
	}
	alertNames, err := checkRules(ctx, rules)
	if err != nil {
		return nil, err
	}
	ev := opt.EvalInterval
	if ev == 0 {
		ev = DefaultEvalInterval
	}
	// Each run's series go into a promtool test file, as large as the
	// OpenMetrics export.
	if err := checkPlan(opt.Budget, cfg); err != nil {
		return nil, err
	}
	g := runner.NewMeter(ctx, opt.Budget, cfg)
	dir := opt.Dir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "ressim-alerts-"); err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
	}
	r := &Report{Rules: opt.Rules, EvalInterval: ev, Alerts: alertNames, rules: rules, RunDuration: cfg.Duration}
	if err := r.evaluateRuns(ctx, g, cfg, dir); err != nil {
		return nil, err
	}
	if opt.NoExtension || r.allResolved() {
		return r, nil
	}
	h := opt.Horizon
	if h == 0 {
		if h, err = DefaultHorizon(rules); err != nil {
			return nil, err
		}
	}
	if h <= 0 {
		return r, nil
	}
	// Still firing at the end: the same model, simulated longer. The
	// simulation is deterministic and its faults are unchanged, so the
	// extended run repeats the run and goes on without a fault.
	ext := extendModel(cfg, h)
	if err := checkPlan(opt.Budget, ext); err != nil {
		return nil, fmt.Errorf("%w (extending the run by the %v horizon for the alerts still firing at its end; --horizon 0 does not extend)", err, h)
	}
	r.Extended = h
	if err := r.evaluateRuns(ctx, g, ext, dir); err != nil {
		return nil, err
	}
	return r, nil
}

// extendModel returns cfg simulated h longer, with its faults as they
// were in the run: one that outlasted the run ends at the run's end, so
// the extension has no fault.
func extendModel(cfg topology.Config, h time.Duration) topology.Config {
	ext := cfg
	ext.Duration += h
	ext.Faults = slices.Clone(cfg.Faults)
	for i := range ext.Faults {
		ext.Faults[i].End = min(ext.Faults[i].End, cfg.Duration)
	}
	return ext
}

// checkPlan checks cfg's runs (with faults, and without) against b.
func checkPlan(b runner.Budget, cfg topology.Config) error {
	plan := []runner.PlannedRun{{Model: cfg, Times: 1, OnDisk: true, Writes: runner.WritesOpenMetrics}}
	if len(cfg.Faults) > 0 {
		plan[0].Times = 2 // the baseline is the same model less its faults: no cheaper
	}
	if err := b.Check(plan); err != nil {
		return fmt.Errorf("alerts: %w", err)
	}
	return nil
}

// evaluateRuns runs cfg, and without faults, under g, evaluates the
// rules on both and fills r.
func (r *Report) evaluateRuns(ctx context.Context, g *runner.Meter, cfg topology.Config, dir string) error {
	res, err := simulate(g, cfg)
	if err != nil {
		return err
	}
	iv := res.Series.Interval()
	if ev := r.EvalInterval; ev <= 0 || ev%iv != 0 {
		return fmt.Errorf("alerts: evaluation interval %v is not a positive multiple of the run's interval %v", ev, iv)
	}
	r.Experiment, r.Interval, r.run = res.Name, iv, res
	tl, err := evaluate(ctx, res, r.rules, r.EvalInterval, filepath.Join(dir, "run.test.yml"))
	if err != nil {
		return err
	}
	r.Duration, r.Episodes, r.Faults = tl.end, tl.episodes, nil
	for i, f := range res.Faults {
		r.Faults = append(r.Faults, detect(r.Episodes, f.Label, f.Start, f.End, horizon(res, i, tl.end)))
	}
	if len(cfg.Faults) == 0 {
		return nil
	}
	cfg.Faults = nil
	base, err := simulate(g, cfg)
	if err != nil {
		return err
	}
	if tl, err = evaluate(ctx, base, r.rules, r.EvalInterval, filepath.Join(dir, "baseline.test.yml")); err != nil {
		return err
	}
	r.Baseline = tl.episodes
	if r.Baseline == nil {
		r.Baseline = []Episode{}
	}
	r.markFalseAlarms()
	return nil
}

// allResolved says whether every episode that fired in the run with
// faults resolved before its end, false alarms (alerts that fire without
// faults too) aside: waiting for those says nothing about the faults.
func (r *Report) allResolved() bool {
	fa := make(map[string]bool) // lookup only
	for _, e := range r.FalseAlarms() {
		fa[e.Alert] = true
	}
	for _, e := range r.Episodes {
		if e.Fired && !e.Resolved && !fa[e.Alert] {
			return false
		}
	}
	return true
}

// horizon is where fault i's examined span ends: the next fault's start,
// or the end.
func horizon(res *topology.Result, i int, end time.Duration) time.Duration {
	h := end
	for _, o := range res.Faults {
		if o.Start > res.Faults[i].Start && o.Start < h {
			h = o.Start
		}
	}
	return h
}

// simulate runs cfg under g with the latency histograms the rules on
// latency read.
func simulate(g *runner.Meter, cfg topology.Config) (*topology.Result, error) {
	res, err := g.Run(cfg, runner.Options{HistogramSeries: true})
	if err != nil {
		return nil, fmt.Errorf("alerts: %w", err)
	}
	return res, nil
}

// It is compiled on first use (start-up pays nothing for it).
var alertLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\s*(?:-\s*)?alert:\s*['"]?([A-Za-z_:][A-Za-z0-9_:]*)`)
})

// checkRules checks the rules file with promtool check rules and returns
// the alert names it declares, in order.
func checkRules(ctx context.Context, rules string) ([]string, error) {
	b, err := readRules(rules)
	if err != nil {
		return nil, err
	}
	r, err := promtool.Run(ctx, nil, "check", "rules", rules)
	if err != nil {
		return nil, fmt.Errorf("alerts: %w", err)
	}
	if r.Code != 0 {
		return nil, fmt.Errorf("alerts: promtool check rules %s:\n%s%s", rules, r.Stdout, r.Stderr)
	}
	var names []string
	seen := make(map[string]bool)
	for _, m := range alertLine().FindAllSubmatch(b, -1) {
		if n := string(m[1]); !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	return names, nil
}

// timeline is one evaluation's result.
type timeline struct {
	end      time.Duration
	steps    []time.Duration
	episodes []Episode
}

// evaluate writes the discovery test file for res to path (ALERTS queried
// at every evaluation), runs it, and reads the episodes.
func evaluate(ctx context.Context, res *topology.Result, rules string, ev time.Duration, path string) (*timeline, error) {
	tf, err := newTestFile(res, rules, ev)
	if err != nil {
		return nil, err
	}
	return evaluateFile(ctx, tf, path)
}

// evaluateFile runs tf with ALERTS queried at every evaluation and reads
// the episodes.
func evaluateFile(ctx context.Context, tf *testFile, path string) (*timeline, error) {
	ev := tf.evalInterval
	var steps []time.Duration
	for t := time.Duration(0); t <= tf.end; t += ev {
		steps = append(steps, t)
	}
	tf.queries = steps
	// An alert test at the end makes promtool evaluate the rules up to it.
	tf.alerts = []alertTest{{at: steps[len(steps)-1], alertname: "ressim_horizon"}}
	out, err := runTest(ctx, tf, path)
	if err != nil {
		return nil, err
	}
	acts, _, err := parseReport(out)
	if err != nil {
		return nil, fmt.Errorf("alerts: %w", err)
	}
	return &timeline{end: tf.end, steps: steps, episodes: episodes(acts, steps)}, nil
}

func newTestFile(res *topology.Result, rules string, ev time.Duration) (*testFile, error) {
	groups, err := groupNames(rules)
	if err != nil {
		return nil, err
	}
	series, iv, end, err := runSeries(res, ev)
	if err != nil {
		return nil, err
	}
	return &testFile{rules: rules, evalInterval: ev, groupOrder: groups, interval: iv, series: series, end: end}, nil
}

func errShort(res *topology.Result) error {
	return fmt.Errorf("alerts: run %s is shorter than one interval", res.Name)
}

// readRules reads the rules file, a regular file only (promtool reads it
// again by name, and a FIFO or device could block it or never end), at
// most MaxRulesSize bytes.
func readRules(rules string) ([]byte, error) {
	f, err := input.OpenRegular(rules)
	if err != nil {
		return nil, fmt.Errorf("alerts: rules: %w", err)
	}
	b, err := input.Read(rules, f, MaxRulesSize, false)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("alerts: rules: %w", err)
	}
	return b, nil
}

// groupNames returns the names of the rules file's groups, in order.
func groupNames(rules string) ([]string, error) {
	b, err := readRules(rules)
	if err != nil {
		return nil, err
	}
	var file struct {
		Groups []struct {
			Name string `yaml:"name"`
		} `yaml:"groups"`
	}
	if err := yaml.Unmarshal(b, &file); err != nil {
		return nil, fmt.Errorf("alerts: rules %s: %w", rules, err)
	}
	var names []string
	for _, g := range file.Groups {
		names = append(names, g.Name)
	}
	return names, nil
}

// runTest writes tf to path and runs promtool test rules on it; failed
// tests are expected (they report what fired), other errors are not.
func runTest(ctx context.Context, tf *testFile, path string) ([]byte, error) {
	var b bytes.Buffer
	if err := tf.write(&b); err != nil {
		return nil, err
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return nil, fmt.Errorf("alerts: %w", err)
	}
	r, err := promtool.Run(ctx, nil, "test", "rules", path)
	if err != nil {
		return nil, fmt.Errorf("alerts: %w", err)
	}
	out := append(r.Stdout, r.Stderr...)
	reported := bytes.Contains(out, []byte("    expr: ")) || bytes.Contains(out, []byte("    alertname: "))
	if r.Code != 0 && !reported {
		return nil, fmt.Errorf("alerts: promtool test rules %s: exit %d\n%s", path, r.Code, out)
	}
	return out, nil
}

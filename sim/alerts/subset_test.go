package alerts

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ressim/ressim/internal/promtool"
	"github.com/ressim/ressim/internal/promtool/promtooltest"
	"github.com/ressim/ressim/sim/alerts/promql"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/export/openmetrics"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/runner"
	"github.com/ressim/ressim/sim/topology"
)

func sortEpisodes(eps []Episode) []Episode {
	eps = slices.Clone(eps)
	slices.SortFunc(eps, func(a, b Episode) int {
		return cmp.Or(strings.Compare(a.Alert, b.Alert), cmp.Compare(a.Pending, b.Pending))
	})
	return eps
}

// subsetCase is an experiment and its rules file, as the alerting
// examples evaluate them (experiments/alerts/alerts_test.go).
type subsetCase struct {
	name, file, variant, rules string
	every                      time.Duration
	// records are recording rules whose values are compared at a few
	// times.
	records []string
}

var subsetCases = []subsetCase{
	{"retry-storm", "../../experiments/metastable-retry-storm.toml", "", "../../experiments/alerts/retry-storm.rules.yml", 15 * time.Second,
		[]string{"users:bad_ratio:rate5m", "users:bad_ratio:rate30m", "users:bad_ratio:rate1h"}},
	{"retry-storm-budget", "../../experiments/metastable-retry-storm.toml", "retry-budget", "../../experiments/alerts/retry-storm.rules.yml", 15 * time.Second,
		[]string{"users:bad_ratio:rate6h"}},
	{"breaker-fallback", "../../experiments/breaker-fallback.toml", "", "../../experiments/alerts/patterns.rules.yml", 5 * time.Second, nil},
	{"retry-budget-storm", "../../experiments/retry-budget-storm.toml", "", "../../experiments/alerts/patterns.rules.yml", 5 * time.Second, nil},
	{"degraded-200", "../../experiments/alerts/degraded-200.toml", "", "../../experiments/alerts/degraded-200.rules.yml", 15 * time.Second,
		[]string{"users:non_error_ratio:rate5m", "users:good_ratio:rate5m"}},
	// The game days, whose alerts the page shows while the room plays
	// (playground.gameAlerts): each with its reference answer's actions.
	{"gameday-pool-exhaustion", "../../experiments/gameday-pool-exhaustion.toml", "", "../../experiments/alerts/gameday-pool-exhaustion.rules.yml", 15 * time.Second, nil},
	{"gameday-retry-storm", "../../experiments/gameday-retry-storm.toml", "", "../../experiments/alerts/gameday-retry-storm.rules.yml", 15 * time.Second, nil},
	{"gameday-half-dead", "../../experiments/gameday-half-dead.toml", "", "../../experiments/alerts/gameday-half-dead.rules.yml", 15 * time.Second, nil},
}

// TestSubsetMatchesPromtool: on the repository's rules files and their
// experiments (each run with its faults and without), the page's PromQL
// subset (package promql) gives every alert instance the same pending,
// firing and resolved times as promtool test rules on the same series,
// and the recording rules the same values (1e-9 relative) at every
// evaluation.
func TestSubsetMatchesPromtool(t *testing.T) {
	promtooltest.Require(t)
	for _, c := range subsetCases {
		t.Run(c.name, func(t *testing.T) {
			exp, err := experiment.Load(c.file)
			if err != nil {
				t.Fatal(err)
			}
			cfg := exp.Model
			if c.variant != "" {
				if cfg, err = run.ReplicaModel(exp, run.Replica{Variant: c.variant}, cfg.Seed); err != nil {
					t.Fatal(err)
				}
			}
			rules, err := filepath.Abs(c.rules)
			if err != nil {
				t.Fatal(err)
			}
			text, err := os.ReadFile(rules)
			if err != nil {
				t.Fatal(err)
			}
			rf, err := promql.ParseRules(text)
			if err != nil {
				t.Fatal(err)
			}
			base := cfg
			base.Faults = nil
			for _, m := range []topology.Config{cfg, base} {
				compareSubset(t, m, rules, rf, c)
			}
		})
	}
}

// TestSubsetCoverageMatchesPromtool: testdata/subset.rules.yml uses every
// construct of the subset (each function, aggregation, operator,
// matching modifier, bool, set operators, keep_firing_for, two alerting
// rules of one name, a group reading ALERTS); on two experiments, with
// and without faults, promtool and the subset agree on every episode and
// on every recording rule's values at every evaluation.
func TestSubsetCoverageMatchesPromtool(t *testing.T) {
	promtooltest.Require(t)
	const rules = "testdata/subset.rules.yml"
	text, err := os.ReadFile(rules)
	if err != nil {
		t.Fatal(err)
	}
	rf, err := promql.ParseRules(text)
	if err != nil {
		t.Fatal(err)
	}
	var records []string
	for _, g := range rf.Groups {
		for _, r := range g.Rules {
			if r.Record != "" {
				records = append(records, r.Record)
			}
		}
	}
	abs, err := filepath.Abs(rules)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []subsetCase{
		{name: "breaker-fallback", file: "../../experiments/breaker-fallback.toml", every: 5 * time.Second},
		{name: "retry-storm", file: "../../experiments/metastable-retry-storm.toml", every: 15 * time.Second},
	} {
		t.Run(c.name, func(t *testing.T) {
			exp, err := experiment.Load(c.file)
			if err != nil {
				t.Fatal(err)
			}
			c.records = records
			base := exp.Model
			base.Faults = nil
			for _, m := range []topology.Config{exp.Model, base} {
				compareSubset(t, m, abs, rf, c)
			}
		})
	}
}

func compareSubset(t *testing.T, cfg topology.Config, rules string, rf *promql.RuleFile, c subsetCase) {
	t.Helper()
	ctx := context.Background()
	res, err := simulate(runner.NewMeter(ctx, runner.Budget{}), cfg)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tl, err := evaluate(ctx, res, rules, c.every, filepath.Join(dir, "run.test.yml"))
	if err != nil {
		t.Fatal(err)
	}
	tf, err := newTestFile(res, rules, c.every)
	if err != nil {
		t.Fatal(err)
	}
	in, end, err := SubsetInput(res, c.every)
	if err != nil {
		t.Fatal(err)
	}
	if end != tf.end {
		t.Fatalf("SubsetInput's end %v, the test file's %v", end, tf.end)
	}
	got, err := promql.Run(rf, in, promql.Options{Interval: c.every, End: end})
	if err != nil {
		t.Fatal(err)
	}
	want := sortEpisodes(tl.episodes)
	have := sortEpisodes(SubsetEpisodes(got.Alerts))
	faults := len(cfg.Faults) > 0
	t.Logf("faults %v: %d episodes from promtool, %d from the subset, %d samples visited", faults, len(want), len(have), got.Cost)
	if !slices.Equal(want, have) {
		t.Errorf("faults %v: episodes differ\npromtool: %+v\nsubset:   %+v", faults, want, have)
	}
	if len(c.records) > 0 {
		compareRecorded(t, tf, got, c.records, c.every, dir)
	}
}

// compareRecorded compares the recording rules' values with promtool's
// at every evaluation, both ways.
func compareRecorded(t *testing.T, tf *testFile, got *promql.Result, records []string, every time.Duration, dir string) {
	t.Helper()
	// Recording rules: promtool's values at every evaluation.
	var at []time.Duration
	for ts := time.Duration(0); ts <= tf.end; ts += every {
		at = append(at, ts)
	}
	promVals := promtoolValues(t, tf, records, at, filepath.Join(dir, "values.test.yml"))
	mine := make(map[string]float64) // lookup only
	for _, s := range got.Recorded {
		if !slices.Contains(records, s.Labels.Get(promql.MetricName)) {
			continue
		}
		for _, p := range s.Points {
			k := fmt.Sprintf("%s@%v", s.Labels, p.T)
			mine[k] = p.V
			if _, ok := promVals[k]; !ok {
				t.Errorf("%s: subset %v, promtool has no sample", k, p.V)
			}
		}
	}
	n := 0
	for k, v := range promVals {
		m, ok := mine[k]
		n++
		if !ok || !closeRel(m, v, 1e-9) {
			t.Errorf("%s: promtool %v, subset %v (present %v)", k, v, m, ok)
		}
	}
	t.Logf("%d recorded values compared", n)
	if n == 0 {
		t.Errorf("no recorded values compared")
	}
}

func closeRel(a, b, tol float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	if a == b {
		return true
	}
	return math.Abs(a-b) <= tol*math.Max(math.Abs(a), math.Abs(b))
}

// promtoolValues queries the recording rules' series with promtool at the
// times at and returns the values by "labels@time".
func promtoolValues(t *testing.T, tf *testFile, records []string, at []time.Duration, path string) map[string]float64 {
	t.Helper()
	vf := *tf
	vf.queries = nil
	vf.alerts = []alertTest{{at: at[len(at)-1], alertname: "ressim_horizon"}}
	var b bytes.Buffer
	if err := vf.write(&b); err != nil {
		t.Fatal(err)
	}
	b.WriteString("    promql_expr_test:\n")
	for _, r := range records {
		for _, ts := range at {
			fmt.Fprintf(&b, "      - expr: %s\n        eval_time: %s\n        exp_samples: []\n", quote(r), dur(ts))
		}
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := runFile(path)
	if err != nil {
		t.Fatal(err)
	}
	vals := make(map[string]float64)
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	var now time.Duration
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(l, "expr: ") {
			_, ts, _ := strings.Cut(l, ", time: ")
			if now, err = parseDuration(strings.TrimSuffix(ts, ",")); err != nil {
				t.Fatalf("%q: %v", l, err)
			}
		}
		if !strings.HasPrefix(l, "got: ") {
			continue
		}
		for s := strings.TrimPrefix(l, "got: "); s != "" && s != "nil"; s = strings.TrimLeft(s, ", ") {
			ls, rest, err := parseLabels(s)
			if err != nil {
				t.Fatalf("%q: %v", l, err)
			}
			rest = strings.TrimLeft(rest, " ")
			num, tail, _ := strings.Cut(rest, ",")
			v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
			if err != nil {
				t.Fatalf("%q: %v", l, err)
			}
			s = tail
			var pairs []string
			for _, p := range ls {
				pairs = append(pairs, p[0], p[1])
			}
			vals[fmt.Sprintf("%s@%v", promql.NewLabels(pairs...), now)] = v
		}
	}
	return vals
}

// runFile runs promtool test rules on path; failures are expected.
func runFile(path string) ([]byte, error) {
	r, err := promtool.Run(context.Background(), nil, "test", "rules", path)
	if err != nil {
		return nil, err
	}
	return append(r.Stdout, r.Stderr...), nil
}

// TestSubsetSyntheticMatchesPromtool: on hand-made series (random
// counters with resets, gauges and a histogram, with missing points and
// silences longer than the 5m lookback) and
// testdata/subset-synthetic.rules.yml, promtool and the subset agree on
// every episode and every recorded value.
func TestSubsetSyntheticMatchesPromtool(t *testing.T) {
	promtooltest.Require(t)
	const rules = "testdata/subset-synthetic.rules.yml"
	text, err := os.ReadFile(rules)
	if err != nil {
		t.Fatal(err)
	}
	rf, err := promql.ParseRules(text)
	if err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(rules)
	if err != nil {
		t.Fatal(err)
	}
	var records []string
	for _, r := range rf.Groups[0].Rules {
		if r.Record != "" {
			records = append(records, r.Record)
		}
	}
	for seed := uint64(1); seed <= 3; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			const iv, every, end = 5 * time.Second, 10 * time.Second, 20 * time.Minute
			series := syntheticSeries(seed, iv, end)
			tf := &testFile{rules: abs, evalInterval: every, groupOrder: []string{"synthetic"}, interval: iv, series: series, end: end}
			dir := t.TempDir()
			tl, err := evaluateFile(context.Background(), tf, filepath.Join(dir, "run.test.yml"))
			if err != nil {
				t.Fatal(err)
			}
			var in []promql.Series
			for _, s := range series {
				ps := promql.Series{Labels: promql.NewLabels(append([]string{promql.MetricName, s.Name}, s.Labels[0][0], s.Labels[0][1])...)}
				for _, p := range s.Points {
					ps.Points = append(ps.Points, promql.Point{T: p.T, V: p.V})
				}
				in = append(in, ps)
			}
			got, err := promql.Run(rf, in, promql.Options{Interval: every, End: end})
			if err != nil {
				t.Fatal(err)
			}
			want, have := sortEpisodes(tl.episodes), sortEpisodes(SubsetEpisodes(got.Alerts))
			t.Logf("%d episodes from promtool, %d from the subset", len(want), len(have))
			if !slices.Equal(want, have) {
				t.Errorf("episodes differ\npromtool: %+v\nsubset:   %+v", want, have)
			}
			compareRecorded(t, tf, got, records, every, dir)
		})
	}
}

// syntheticSeries: two counters (steps of 0 to 5, a reset now and then),
// two gauges (0 to 10) and a histogram (two buckets and +Inf), every iv
// up to end, each point missing with probability 0.15 and every series
// silent for 6 minutes somewhere.
func syntheticSeries(seed uint64, iv, end time.Duration) []openmetrics.Series {
	r := rand.New(rand.NewPCG(seed, 42))
	n := int(end/iv) + 1
	silent := func() (int, int) {
		from := r.IntN(n - 80)
		return from, from + int(6*time.Minute/iv)
	}
	var out []openmetrics.Series
	add := func(name string, label [2]string, next func(i int) float64) {
		s := openmetrics.Series{Name: name, Labels: [][2]string{label}}
		from, to := silent()
		for i := 0; i < n; i++ {
			v := next(i)
			if r.Float64() < 0.15 || i >= from && i < to {
				continue
			}
			s.Points = append(s.Points, openmetrics.Point{T: time.Duration(i) * iv, V: v})
		}
		out = append(out, s)
	}
	for _, k := range []string{"a", "b"} {
		c := 0.0
		add("c_total", [2]string{"k", k}, func(int) float64 {
			if r.Float64() < 0.03 {
				c = float64(r.IntN(3))
			} else {
				c += float64(r.IntN(6))
			}
			return c
		})
		add("g", [2]string{"k", k}, func(int) float64 { return float64(r.IntN(41)) / 4 })
	}
	// The histogram: cumulative counts, buckets consistent at each point.
	h := [3][]float64{}
	b1, b2, inf := 0.0, 0.0, 0.0
	for i := 0; i < n; i++ {
		x, y := float64(r.IntN(5)), float64(r.IntN(3))
		b1 += x
		b2 += x + y
		inf += x + y + float64(r.IntN(2))
		h[0], h[1], h[2] = append(h[0], b1), append(h[1], b2), append(h[2], inf)
	}
	for j, le := range []string{"0.1", "1", "+Inf"} {
		s := openmetrics.Series{Name: "h_bucket", Labels: [][2]string{{"le", le}}}
		for i := 0; i < n; i++ {
			if i%7 != 3 { // every bucket misses the same points
				s.Points = append(s.Points, openmetrics.Point{T: time.Duration(i) * iv, V: h[j][i]})
			}
		}
		out = append(out, s)
	}
	return out
}

package promql

import (
	"strings"
	"testing"
	"time"
)

// fuzzSeries give the fuzzed expressions something to select.
var fuzzSeries = []Series{
	series(NewLabels(MetricName, "x", "a", "1"), 10*time.Second, 0, 5, 3, 9),
	series(NewLabels(MetricName, "x", "a", "2"), 10*time.Second, 1, 2),
	series(NewLabels(MetricName, "y", "a", "1", "b", "z"), 10*time.Second, 7, 7, 7, 7),
	series(NewLabels(MetricName, "h_bucket", "le", "0.1"), 10*time.Second, 1, 2, 3, 4),
	series(NewLabels(MetricName, "h_bucket", "le", "+Inf"), 10*time.Second, 2, 4, 6, 8),
}

// FuzzParse: any input parses or fails with an *Error, within the
// budgets, without panicking; what parses evaluates on an empty storage
// without panicking.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`sum(rate(ressim_client_responses_total{outcome="good"}[5m])) / sum(rate(ressim_client_requests_total[5m]))`,
		`1 - sum(rate(x{a=~"b|c"}[1h])) > 14.4 * 0.001 and y > bool 0.5`,
		`histogram_quantile(0.99, sum by (le) (rate(h_bucket[5m])))`,
		`max by (caller, service) (ressim_breaker_state{state="open"}) == 1`,
		`-x ^ 2 % 3 unless on (a) y or ignoring (b) z`,
		`avg_over_time(x[1m]) + max_over_time(x[1m]) - min_over_time(x[30s])`,
		`x offset 5m`, `rate(x[5m:1m])`, `topk(3, x)`, `"s"`, `{a=""}`, `x[5m]`, `(((`, "x +\n y",
		`0x1f + .5e3 + Inf - NaN`, `vector(1)`, `sum without (a) (x)`, `irate(x[1m]) + delta(x[1m])`, `rate((x[5m]))`, `max_over_time(((x[1m])))`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := Parse(s)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("%q: error %T %v, want *Error", s, err, err)
			}
			if !strings.HasPrefix(err.Error(), "promql: ") {
				t.Fatalf("%q: %v", s, err)
			}
			return
		}
		st, _ := newStorage(fuzzSeries, DefaultLimits)
		ev := &evaluator{st: st, cache: make(map[*VectorSelector]*selCache)}
		if e.Type() != MatrixType {
			ev.instant(e, (30 * time.Second).Milliseconds())
		}
	})
}

// FuzzParseRules: any rules file is read or refused with an error,
// without panicking.
func FuzzParseRules(f *testing.F) {
	for _, s := range []string{
		"groups:\n  - name: g\n    rules:\n      - alert: A\n        expr: x > 1\n        for: 1m\n        labels: {s: p}\n",
		"groups:\n  - name: g\n    interval: 1m\n    rules:\n      - record: r\n        expr: sum(x)\n",
		"groups:\n  - name: g\n    rules:\n      - record: r\n        alert: a\n",
		"groups: [{name: a, rules: [{alert: X, expr: 'foo(x)'}]}]",
		"a: &a [*a, *a]",
		"groups:\n  - name: g\n    rules:\n      - alert: A\n        expr: [x]\n",
		"",
		"groups:\n  - name: g\n    rules:\n      - record: r\n        expr: x[5m]\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		rf, err := ParseRules(b)
		if err == nil && rf == nil {
			t.Fatal("no file and no error")
		}
	})
}

package promql

import (
	"math"
	"strings"
	"testing"
	"time"
)

// TestPrecedence: operators bind as in Prometheus: ^ right-associative
// and above unary minus, which is above * / %, then + -, comparisons,
// and/unless, or.
func TestPrecedence(t *testing.T) {
	for expr, want := range map[string]float64{
		"1 + 2 * 3":          7,
		"(1 + 2) * 3":        9,
		"2 ^ 3 ^ 2":          512,
		"-2 ^ 2":             -4,
		"- 2 * 3":            -6,
		"10 - 4 - 3":         3,
		"7 % 4 * 2":          6,
		"1 + 2 > bool 2":     1,
		"1 + 2 > bool 2 * 2": 0,
		"0x10 + 1e1 + .5":    26.5,
		"3 == bool 3 + 0":    1,
		"-(1 - 3) / 4":       0.5,
		"1 / 0 > bool 1e308": 1,
	} {
		v := evalAt(t, nil, expr, 0)
		if !v.scalar || v.s != want {
			t.Errorf("%s = %+v, want %v", expr, v, want)
		}
	}
	v := evalAt(t, nil, "NaN", 0)
	if !math.IsNaN(v.s) {
		t.Errorf("NaN = %v", v.s)
	}
}

// TestParseErrors: outside the subset or malformed, with the position.
func TestParseErrors(t *testing.T) {
	for expr, want := range map[string]string{
		`foo(x)`: "unsupported function foo at column 1; the page evaluates a subset, see docs/observability.md",
		`rate(x[5m]) + label_replace(x, "a", "b", "c", "d")`: "unsupported function label_replace at column 15",
		`sum(x) by (a) + topk(3, x)`:                         "unsupported aggregation topk at column 17",
		`x offset 5m`:                                        "unsupported modifier offset at column 3",
		`x @ 100`:                                            "unsupported modifier @ at column 3",
		`rate(x[5m:1m])`:                                     "unsupported subquery at column 10",
		`x / on(a) group_left b`:                             "unsupported modifier group_left (many-to-one matching) at column 11",
		`"str"`:                                              "unsupported string literal at column 1",
		`rate(x)`:                                            "expected type range vector in call to function \"rate\", got instant vector at column 6",
		`x[5m]`:                                              "",
		`x[5m] + 1`:                                          "binary expression must contain only scalar and instant vector types at column 1",
		`1 > 2`:                                              "comparisons between scalars must use BOOL modifier at column 3",
		`x and 1`:                                            "set operator \"and\" not allowed in binary scalar expression at column 3",
		`x + bool y`:                                         "bool modifier can only be used on comparison operators at column 5",
		`{a=""}`:                                             "vector selector must contain at least one non-empty matcher at column 1",
		`x{a=~"("}`:                                          "invalid regular expression",
		`sum(x, y)`:                                          "wrong number of arguments for aggregate expression provided, expected 1 at column 6",
		`(x`:                                                 "unexpected end of input, expected \")\" at column 3",
		"x +\n  foo(y)":                                      "unsupported function foo at line 2, column 3",
		`x{a="b"`:                                            "unexpected end of input in label matching",
		`1 + $`:                                              "unexpected character '$' at column 5",
		`x[5q]`:                                              "not a valid duration string",
		`histogram_quantile(0.9)`:                            "expected 2 argument(s) in call to \"histogram_quantile\", got 1",
		`x y`:                                                `unexpected "y" at column 3`,
		`by`:                                                 `unexpected "by" at column 1`,
		`-x[5m]`:                                             "unary expression only allowed on expressions of type scalar or instant vector at column 1",
		`+x`:                                                 "",
		`x[5m`:                                               `unexpected end of input in range, expected "]" at column 5`,
		`x[foo]`:                                             `unexpected "foo" in range, expected a duration at column 3`,
		`x[0s]`:                                              "range must be positive at column 3",
		`(x)[5m]`:                                            "unsupported subquery (a range is only allowed on a vector selector here) at column 4",
		`x{"a"="b"}`:                                         "unsupported quoted label name at column 3",
		`x{1a="b"}`:                                          `unexpected "1a" in label matching, expected label name at column 3`,
		`x{a>"b"}`:                                           `unexpected ">" in label matching, expected one of "=", "!=", "=~", "!~" at column 4`,
		`x{__name__="y"}`:                                    `metric name must not be set twice: "x" or "y" at column 3`,
		`x{a="\q"}`:                                          `invalid quoted string "\q" at column 5`,
		`x{a="b",}`:                                          "",
		`sum by (1) (x)`:                                     `unexpected "1" in grouping, expected label name at column 9`,
		`sum by (a b) (x)`:                                   `unexpected "b" in grouping, expected "," or ")" at column 11`,
		`sum()`:                                              "no arguments for aggregate expression provided at column 4",
		`sum by (a) (x) by (b)`:                              "aggregation sum has two groupings at column 1",
		`sum(x[5m])`:                                         "expected type instant vector in aggregation expression, got range vector at column 5",
		`rate(x[5m] y)`:                                      `unexpected "y" in function call, expected "," or ")" at column 12`,
		`x + on(a) 1`:                                        "vector matching only allowed between instant vectors at column 3",
		`1e`:                                                 `bad number or duration syntax: "1e" at column 1`,
		strings.Repeat("(", 100) + "1" + strings.Repeat(")", 100): "expression nested deeper than 64",
		strings.Repeat("1+", MaxExprLen):                          "expression longer than",
	} {
		_, err := Parse(expr)
		if want == "" {
			if err != nil {
				t.Errorf("%q: %v", expr, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want it to contain %q", trim(expr), err, want)
		}
	}
}

// TestQuotedLabelValues: a label value may be written in double quotes
// (Go's escapes), single quotes (read as Go's double-quoted, so \' is a
// quote and a double quote needs no escape) or backquotes (raw), as
// Prometheus reads them.
func TestQuotedLabelValues(t *testing.T) {
	for expr, want := range map[string]string{
		`x{a="b\"c\n"}`: "b\"c\n",
		`x{a='b\'c"d'}`: `b'c"d`,
		"x{a=`b\\n`}":   `b\n`,
	} {
		e, err := Parse(expr)
		if err != nil {
			t.Errorf("%s: %v", expr, err)
			continue
		}
		vs, ok := e.(*VectorSelector)
		if !ok || len(vs.Matchers) != 2 || vs.Matchers[1].Name != "a" || vs.Matchers[1].Value != want {
			t.Errorf("%s: parsed %#v, want a matcher a = %q", expr, e, want)
		}
	}
}

func trim(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

// TestSubsetExpressions: the forms the subset accepts, as Prometheus
// evaluates them.
func TestSubsetExpressions(t *testing.T) {
	s := time.Second
	in := []Series{
		series(NewLabels(MetricName, "req_total", "svc", "a", "code", "200"), 10*s, 0, 10, 20),
		series(NewLabels(MetricName, "req_total", "svc", "a", "code", "500"), 10*s, 0, 1, 2),
		series(NewLabels(MetricName, "req_total", "svc", "b", "code", "200"), 10*s, 0, 5, 10),
		series(NewLabels(MetricName, "up", "svc", "a"), 10*s, 1, 1, 1),
		series(NewLabels(MetricName, "up", "svc", "b"), 10*s, 1, 1, 0),
	}
	for _, c := range []struct {
		expr string
		want map[string]float64 // by Labels.String()
	}{
		{`sum(req_total)`, map[string]float64{`{}`: 32}},
		{`sum by (svc) (req_total)`, map[string]float64{`{svc="a"}`: 22, `{svc="b"}`: 10}},
		{`sum(req_total) without (code)`, map[string]float64{`{svc="a"}`: 22, `{svc="b"}`: 10}},
		{`count without (svc, code) (req_total)`, map[string]float64{`{}`: 3}},
		{`max by (code) (req_total)`, map[string]float64{`{code="200"}`: 20, `{code="500"}`: 2}},
		{`min(req_total)`, map[string]float64{`{}`: 2}},
		{`avg(up)`, map[string]float64{`{}`: 0.5}},
		{`req_total{code=~"5.."}`, map[string]float64{`{__name__="req_total", code="500", svc="a"}`: 2}},
		{`req_total{code=~"5"}`, map[string]float64{}}, // anchored
		{`req_total{code!~"2.*", svc!="b"}`, map[string]float64{`{__name__="req_total", code="500", svc="a"}`: 2}},
		{`up == 0`, map[string]float64{`{__name__="up", svc="b"}`: 0}},
		{`up == bool 0`, map[string]float64{`{svc="a"}`: 0, `{svc="b"}`: 1}},
		{`0 < up`, map[string]float64{`{__name__="up", svc="a"}`: 1}},
		{`up * 2`, map[string]float64{`{svc="a"}`: 2, `{svc="b"}`: 0}},
		{`sum by (svc) (req_total) / on (svc) up`, map[string]float64{`{svc="a"}`: 22, `{svc="b"}`: math.Inf(1)}},
		{`sum by (svc) (req_total) > ignoring (code) up`, map[string]float64{`{svc="a"}`: 22, `{svc="b"}`: 10}},
		{`req_total{code="200"} and on (svc) up == 0`, map[string]float64{`{__name__="req_total", code="200", svc="b"}`: 10}},
		{`req_total{code="200"} unless on (svc) up == 0`, map[string]float64{`{__name__="req_total", code="200", svc="a"}`: 20}},
		{`up == 0 or up`, map[string]float64{`{__name__="up", svc="b"}`: 0, `{__name__="up", svc="a"}`: 1}},
		{`vector(3) - 1`, map[string]float64{`{}`: 2}},
		{`-up`, map[string]float64{`{svc="a"}`: -1, `{svc="b"}`: 0}},
		{`sum(rate(req_total[20s]))`, map[string]float64{`{}`: 32.0 / 20}},
		{`max_over_time(up[20s])`, map[string]float64{`{svc="a"}`: 1, `{svc="b"}`: 1}},
		{`min_over_time(up[20s])`, map[string]float64{`{svc="a"}`: 1, `{svc="b"}`: 0}},
		{`avg_over_time(up[20s])`, map[string]float64{`{svc="a"}`: 1, `{svc="b"}`: 2.0 / 3}},
		{`sum_over_time(up[20s])`, map[string]float64{`{svc="a"}`: 3, `{svc="b"}`: 2}},
		{`sum_over_time((up[20s]))`, map[string]float64{`{svc="a"}`: 3, `{svc="b"}`: 2}},
	} {
		v := evalAt(t, in, c.expr, 20*s)
		got := make(map[string]float64)
		for _, x := range v.vec {
			got[x.lbls.String()] = x.v
		}
		if len(got) != len(c.want) {
			t.Errorf("%s = %v, want %v", c.expr, got, c.want)
			continue
		}
		for k, w := range c.want {
			if g, ok := got[k]; !ok || math.Abs(g-w) > 1e-12 && !(math.IsInf(g, 1) && math.IsInf(w, 1)) {
				t.Errorf("%s = %v, want %v", c.expr, got, c.want)
				break
			}
		}
	}
}

// TestHistogramQuantile: linear interpolation in the bucket holding the
// rank, grouped by the labels less le.
func TestHistogramQuantile(t *testing.T) {
	var in []Series
	for le, n := range map[string]float64{"0.1": 50, "0.5": 90, "1": 100, "+Inf": 100} {
		in = append(in, series(NewLabels(MetricName, "d_bucket", "le", le, "svc", "a"), time.Second, n))
	}
	v := evalAt(t, in, `histogram_quantile(0.9, d_bucket)`, 0)
	if len(v.vec) != 1 || v.vec[0].lbls.String() != `{svc="a"}` || math.Abs(v.vec[0].v-0.5) > 1e-12 {
		t.Errorf("p90 = %+v, want {svc=\"a\"} 0.5", v.vec)
	}
	v = evalAt(t, in, `histogram_quantile(0.7, d_bucket)`, 0)
	if got := v.vec[0].v; math.Abs(got-0.3) > 1e-12 {
		t.Errorf("p70 = %v, want 0.3 (0.1 + 0.4 * 20/40)", got)
	}
	v = evalAt(t, in, `histogram_quantile(1, d_bucket)`, 0)
	if got := v.vec[0].v; got != 1 {
		t.Errorf("p100 = %v, want 1 (the last finite bound)", got)
	}
}

// TestEvalErrors: what Prometheus refuses at evaluation.
func TestEvalErrors(t *testing.T) {
	in := []Series{
		series(NewLabels(MetricName, "a", "x", "1"), time.Second, 1),
		series(NewLabels(MetricName, "b", "x", "1"), time.Second, 2),
	}
	for expr, want := range map[string]string{
		`{x="1"} * 2`:              "vector cannot contain metrics with the same labelset",
		`a + on () {x="1"}`:        "found duplicate series for the match group",
		`{x="1"} + ignoring (x) a`: "multiple matches for labels",
	} {
		e, err := Parse(expr)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := newStorage(in, DefaultLimits)
		ev := &evaluator{st: st, cache: make(map[*VectorSelector]*selCache)}
		if _, err := ev.instant(e, 0); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", expr, err, want)
		}
	}
}

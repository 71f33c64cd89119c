package promtext

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/telemetry"
)

// lbl builds a label list from name, value pairs.
func lbl(kv ...string) []telemetry.Label {
	var out []telemetry.Label
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, telemetry.Label{Name: kv[i], Value: kv[i+1]})
	}
	return out
}

func pts(tv ...float64) []telemetry.Point {
	var out []telemetry.Point
	for i := 0; i+1 < len(tv); i += 2 {
		out = append(out, telemetry.Point{T: int64(tv[i]), V: tv[i+1]})
	}
	return out
}

func TestParseFormats(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		name     string
		in       string
		series   []telemetry.Series
		families []telemetry.Family
	}{{
		name: "prometheus text, one scrape",
		in: "# HELP up Whether the target is up.\n# TYPE up gauge\nup 1\n" +
			"# TYPE http_requests_total counter\n" +
			"http_requests_total{method=\"post\",code=\"200\"} 1027\n" +
			"http_requests_total{code=\"400\", method=\"post\"}    3\n",
		series: []telemetry.Series{
			{Name: "http_requests_total", Labels: lbl("code", "200", "method", "post"), Points: pts(5000, 1027), Origin: telemetry.Origin{File: "f", Line: 5}},
			{Name: "http_requests_total", Labels: lbl("code", "400", "method", "post"), Points: pts(5000, 3), Origin: telemetry.Origin{File: "f", Line: 6}},
			{Name: "up", Points: pts(5000, 1), Origin: telemetry.Origin{File: "f", Line: 3}},
		},
		families: []telemetry.Family{{Name: "http_requests_total", Type: "counter"}, {Name: "up", Type: "gauge"}},
	}, {
		name: "prometheus text, timestamps in ms out of order, special values",
		in: "x{a=\"1\"} 2 2000\nx{a=\"1\"} 1 1000\nx{a=\"1\"} +Inf 3000\nweird -Inf -3982045\n" +
			"\n  \t\n# a comment\nsci 1.5e3 7\n",
		series: []telemetry.Series{
			{Name: "sci", Points: pts(7, 1500), Origin: telemetry.Origin{File: "f", Line: 8}},
			{Name: "weird", Points: pts(-3982045, math.Inf(-1)), Origin: telemetry.Origin{File: "f", Line: 4}},
			{Name: "x", Labels: lbl("a", "1"), Points: pts(1000, 1, 2000, 2, 3000, inf), Origin: telemetry.Origin{File: "f", Line: 1}},
		},
	}, {
		name: "escapes in label values",
		in:   `m{path="C:\\DIR\\FILE.TXT",error="Cannot find file:\n\"FILE.TXT\"",empty=""} 1` + "\n",
		series: []telemetry.Series{{Name: "m",
			Labels: lbl("empty", "", "error", "Cannot find file:\n\"FILE.TXT\"", "path", `C:\DIR\FILE.TXT`),
			Points: pts(5000, 1), Origin: telemetry.Origin{File: "f", Line: 1}}},
	}, {
		name: "openmetrics: seconds, units, _created dropped, exemplars ignored",
		in: "# TYPE foo counter\n# UNIT foo seconds\n# HELP foo Foo.\n" +
			"foo_total{a=\"x\"} 1 1700000000.5\n" +
			"foo_created{a=\"x\"} 1699999999 1700000000.5\n" +
			"foo_total{a=\"x\"} 2 1700000001 # {trace_id=\"abc\"} 0.5 1700000000.9\n" +
			"# TYPE lat histogram\n" +
			"lat_bucket{le=\"0.1\"} 3 # {trace_id=\"q\"} 0.05\n" +
			"lat_bucket{le=\"+Inf\"} 4\n" +
			"lat_count 4\nlat_sum 0.7\nlat_created 12\n" +
			"# UNIT bytes_used bytes\nbytes_used 10\n" +
			"# EOF\n",
		series: []telemetry.Series{
			{Name: "bytes_used", Points: pts(5000, 10), Origin: telemetry.Origin{File: "f", Line: 14}},
			{Name: "foo_total", Labels: lbl("a", "x"), Points: pts(1700000000500, 1, 1700000001000, 2), Origin: telemetry.Origin{File: "f", Line: 4}},
			{Name: "lat_bucket", Labels: lbl("le", "+Inf"), Points: pts(5000, 4), Origin: telemetry.Origin{File: "f", Line: 9}},
			{Name: "lat_bucket", Labels: lbl("le", "0.1"), Points: pts(5000, 3), Origin: telemetry.Origin{File: "f", Line: 8}},
			{Name: "lat_count", Points: pts(5000, 4), Origin: telemetry.Origin{File: "f", Line: 10}},
			{Name: "lat_sum", Points: pts(5000, 0.7), Origin: telemetry.Origin{File: "f", Line: 11}},
		},
		families: []telemetry.Family{
			{Name: "bytes_used", Type: "unknown", Unit: "bytes"},
			{Name: "foo", Type: "counter", Unit: "seconds"},
			{Name: "lat", Type: "histogram"},
		},
	}, {
		name: "openmetrics: a gauge's _created is kept",
		in:   "# TYPE g gauge\ng_created 3 1\n# EOF",
		series: []telemetry.Series{
			{Name: "g_created", Points: pts(1000, 3), Origin: telemetry.Origin{File: "f", Line: 2}},
		},
		families: []telemetry.Family{{Name: "g", Type: "gauge"}},
	}, {
		name: "tsdb dump: __name__ in braces, Go quoting, ms",
		in: `{__name__="up", instance="127.0.0.1:9090", job="prometheus"} 1 1796579664527` + "\n" +
			`{__name__="up", instance="127.0.0.1:9090", job="prometheus"} 0 1796579665527` + "\n" +
			`{__name__="q", path="a\tb\\c\"d\x01"} 2.3e-05 5` + "\n",
		series: []telemetry.Series{
			{Name: "q", Labels: lbl("path", "a\tb\\c\"d\x01"), Points: pts(5, 2.3e-05), Origin: telemetry.Origin{File: "f", Line: 3}},
			{Name: "up", Labels: lbl("instance", "127.0.0.1:9090", "job", "prometheus"),
				Points: pts(1796579664527, 1, 1796579665527, 0), Origin: telemetry.Origin{File: "f", Line: 1}},
		},
	}, {
		name: "quoted metric name",
		in:   `{"my.metric", "a.b"="c"} 1` + "\n",
		series: []telemetry.Series{
			{Name: "my.metric", Labels: lbl("a.b", "c"), Points: pts(5000, 1), Origin: telemetry.Origin{File: "f", Line: 1}},
		},
	}, {
		name: "CRLF line ends",
		in:   "# TYPE a gauge\r\na 1 10\r\n",
		series: []telemetry.Series{
			{Name: "a", Points: pts(10, 1), Origin: telemetry.Origin{File: "f", Line: 2}},
		},
		families: []telemetry.Family{{Name: "a", Type: "gauge"}},
	}, {
		name: "empty input",
		in:   "",
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse("f", []byte(tc.in), Options{DefaultTime: 5000})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Series, tc.series) {
				t.Errorf("series:\n got %+v\nwant %+v", got.Series, tc.series)
			}
			if !reflect.DeepEqual(got.Families, tc.families) {
				t.Errorf("families:\n got %+v\nwant %+v", got.Families, tc.families)
			}
		})
	}
}

func TestParseNaN(t *testing.T) {
	got, err := Parse("f", []byte("m NaN\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Series) != 1 || len(got.Series[0].Points) != 1 || !math.IsNaN(got.Series[0].Points[0].V) {
		t.Fatalf("got %+v, want one NaN point", got.Series)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, in  string
		line, col int
		msg       string
	}{
		{"no value", "up\n", 1, 3, "missing value"},
		{"NUL at line start", "up 1\n\x00up 1\n", 2, 1, "expected a metric name"},
		{"bad value", "a 1\nup x1\n", 2, 4, `invalid value "x1"`},
		{"hex value", "up 0x1p3\n", 1, 4, "invalid value"},
		{"bad timestamp", "up 1 1.5\n", 1, 6, "invalid timestamp"},
		{"bad om timestamp", "up 1 x\n# EOF\n", 1, 6, "invalid timestamp"},
		{"trailing text", "up 1 2 3\n", 1, 8, "unexpected text"},
		{"unterminated value", `up{a="x} 1`, 1, 6, "unterminated"},
		{"bad escape", `up{a="\t"} 1`, 1, 7, `invalid escape \t`},
		{"missing =", `up{a "x"} 1`, 1, 6, "expected ="},
		{"missing comma", `up{a="x" b="y"} 1`, 1, 10, "expected , or }"},
		{"unquoted value", `up{a=x} 1`, 1, 6, "quoted label value"},
		{"duplicate label", `up{a="1",b="2",a="3"} 1`, 1, 16, `label "a" given twice`},
		{"name twice", `up{__name__="x"} 1`, 1, 4, "metric name given twice"},
		{"no name", `{a="1"} 1 1`, 1, 1, "no metric name"},
		{"bad name", "9up 1\n", 1, 1, "expected a metric name"},
		{"no blank before value", `up{a="1"}1`, 1, 10, "expected a blank"},
		{"duplicate time", "up 1 5\nup 2 6\nup 3 5\n", 3, 6, "second sample of up at time 5 ms"},
		{"duplicate default time", "x 1\nup 1\nup 2\n", 3, 1, "second sample of up at time 0 ms"},
		{"bad type", "# TYPE up gauges\n", 1, 11, `unknown Prometheus text metric type "gauges"`},
		{"om-only type", "# TYPE up info\n", 1, 11, "unknown Prometheus text metric type"},
		{"conflicting type", "# TYPE up gauge\n# TYPE up counter\n", 2, 11, "declared gauge earlier"},
		{"type without type", "# TYPE up\n", 1, 8, "# TYPE takes"},
		{"type bad name", "# TYPE u-p gauge\n", 1, 8, "invalid metric name"},
		{"after eof", "up 1\n# EOF\nup 2\n", 3, 1, "text after # EOF"},
		{"om bad unit line", "# UNIT a b c\n# EOF\n", 1, 8, "# UNIT takes"},
		{"dump bad quoting", `{__name__="a", b="\q"} 1 2`, 1, 18, "invalid quoted string"},
		{"dump native histogram", `{__name__="h"} {count:2, sum:3} 1`, 1, 16, "invalid value"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("in.prom", []byte(tc.in), Options{})
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v, want a *SyntaxError", err)
			}
			if se.File != "in.prom" || se.Line != tc.line || se.Col != tc.col || !strings.Contains(se.Msg, tc.msg) {
				t.Errorf("err = %q, want in.prom:%d:%d: ...%s...", err, tc.line, tc.col, tc.msg)
			}
		})
	}
}

func TestSyntaxErrorString(t *testing.T) {
	e := &SyntaxError{File: "a.prom", Line: 3, Col: 7, Msg: "bad"}
	if got, want := e.Error(), "a.prom:3:7: bad"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestBudgets(t *testing.T) {
	in := []byte("a 1 1\nb 1 1\na 2 2\nc 1 1\n")
	tests := []struct {
		opt    Options
		budget string
		line   int
	}{
		{Options{MaxSeries: 2}, "MaxSeries", 4},
		{Options{MaxPoints: 3}, "MaxPoints", 4},
		{Options{MaxPoints: 2}, "MaxPoints", 3},
	}
	for _, tc := range tests {
		_, err := Parse("f", in, tc.opt)
		var be *BudgetError
		if !errors.As(err, &be) || be.Budget != tc.budget || be.Line != tc.line {
			t.Errorf("%+v: err = %v, want %s at line %d", tc.opt, err, tc.budget, tc.line)
			continue
		}
		if !strings.Contains(err.Error(), tc.budget) {
			t.Errorf("%q does not name the budget", err)
		}
	}
	if _, err := Parse("f", in, Options{MaxSeries: 3, MaxPoints: 4}); err != nil {
		t.Errorf("exactly at the budgets: %v", err)
	}
	if _, err := Parse("f", in, Options{MaxSeries: -1}); err == nil {
		t.Error("a negative budget was accepted")
	}
}

func TestDetect(t *testing.T) {
	tests := []struct {
		in   string
		want format
	}{
		{"up 1\n", formatPrometheus},
		{"# HELP x\n{__name__=\"up\"} 1 2\n", formatDump},
		{"up 1\n# EOF\n", formatOpenMetrics},
		{"up 1\n# EOF", formatOpenMetrics},
		{"up 1\n# EOF \n", formatPrometheus},
		{"", formatPrometheus},
	}
	for _, tc := range tests {
		if got := detect([]byte(tc.in)); got != tc.want {
			t.Errorf("detect(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

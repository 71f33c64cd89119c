package promql

import (
	"strings"
	"testing"
	"time"
)

// TestParseRules: the fields of a rules file, as promtool reads them.
func TestParseRules(t *testing.T) {
	rf := mustRules(t, `groups:
  - name: g
    interval: 30s
    rules:
      - record: job:x:rate5m
        expr: sum by (job) (rate(x_total[5m]))
        labels: {team: a}
      - alert: XHigh
        expr: |
          job:x:rate5m
            > 10
        for: 2m
        keep_firing_for: 1m
        labels:
          severity: page
        annotations:
          summary: 'x is {{ $value }}'
`)
	g := rf.Groups[0]
	if g.Name != "g" || g.Interval != 30*time.Second || len(g.Rules) != 2 {
		t.Fatalf("group %+v", g)
	}
	r := g.Rules[1]
	if r.Alert != "XHigh" || r.For != 2*time.Minute || r.KeepFiringFor != time.Minute ||
		r.Labels.String() != `{severity="page"}` || r.Annotations.Get("summary") != "x is {{ $value }}" || r.Line != 8 {
		t.Errorf("alert %+v", r)
	}
	if g.Rules[0].Record != "job:x:rate5m" || g.Rules[0].Labels.Get("team") != "a" {
		t.Errorf("record %+v", g.Rules[0])
	}
}

// TestParseRulesErrors: refused files, with where.
func TestParseRulesErrors(t *testing.T) {
	rule := func(body string) string { return "groups:\n  - name: g\n    rules:\n      - " + body + "\n" }
	for text, want := range map[string]string{
		rule("alert: A\n        expr: foo(x)"):                                    "rules: line 5: group \"g\", rule 1: A: promql: unsupported function foo at column 1",
		rule("alert: A\n        expr: x\n        labels: {s: '{{ $labels.x }}'}"): "label s is a template: unsupported",
		rule("record: a\n        alert: b\n        expr: x"):                      "only one of 'record' and 'alert' must be set",
		rule("expr: x"):                                            "one of 'record' or 'alert' must be set",
		rule("alert: A"):                                           "field 'expr' must be set",
		rule("record: 'a-b'\n        expr: x"):                     "invalid recording rule name",
		rule("record: r\n        expr: x\n        for: 1m"):        "invalid field",
		rule("alert: A\n        expr: x\n        for: 1q"):         "not a valid duration string",
		rule("alert: A\n        expr: x\n        labels: {1a: b}"): "invalid label name",
		rule("alert: A\n        expr: x\n        bogus: 1"):        "field bogus not found",
		"groups:\n  - rules: []\n":                                 "group name must not be empty",
		"groups:\n  - name: g\n  - name: g\n":                      "group \"g\" is repeated",
		"groups:\n  - name: g\n    limit: 3\n":                     "limit is not supported",
		"groups: [":                                                "rules: yaml",
		strings.Repeat("#", MaxRulesSize+1):                        "file larger than",
	} {
		_, err := ParseRules([]byte(text))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", trim(text), err, want)
		}
	}
}

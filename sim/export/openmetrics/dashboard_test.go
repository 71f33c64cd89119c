package openmetrics

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ressim/ressim/internal/promtool"
	"github.com/ressim/ressim/internal/promtool/promtooltest"
)

const dashboardPath = "../../../docs/grafana/ressim-incident.json"

// dashboardQueries returns every PromQL query of the Grafana dashboard:
// panel targets' expr and template variables' definition, in file order.
func dashboardQueries(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(dashboardPath)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", dashboardPath, err)
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for _, k := range []string{"expr", "definition"} {
				if s, ok := x[k].(string); ok {
					out = append(out, s)
				}
			}
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				walk(x[k])
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	if len(out) < 10 {
		t.Fatalf("%s: only %d queries", dashboardPath, len(out))
	}
	return out
}

var (
	metricRef  = regexp.MustCompile(`\b(ressim_[a-z0-9_]+)(\{[^}]*\})?`)
	labelMatch = regexp.MustCompile(`([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)`)
)

// TestDashboardMetricsExist: every metric a dashboard query names is a
// sample name of the export, and every label it matches on is one of that
// family's labels (le too, for a histogram's _bucket).
func TestDashboardMetricsExist(t *testing.T) {
	fams := make(map[string]Family)
	for _, f := range Families() {
		if f.Type == Histogram {
			fams[f.Name+"_count"], fams[f.Name+"_sum"] = f, f
			f.Labels = append(slices.Clone(f.Labels), "le")
			fams[f.Name+"_bucket"] = f
			continue
		}
		fams[f.Sample()] = f
	}
	for _, q := range dashboardQueries(t) {
		refs := metricRef.FindAllStringSubmatch(q, -1)
		if len(refs) == 0 {
			t.Errorf("query names no ressim metric: %s", q)
		}
		for _, m := range refs {
			f, ok := fams[m[1]]
			if !ok {
				t.Errorf("query %q: %s is not exported", q, m[1])
				continue
			}
			for _, l := range labelMatch.FindAllStringSubmatch(m[2], -1) {
				if !slices.Contains(f.Labels, l[1]) {
					t.Errorf("query %q: %s has no label %s (has %v)", q, m[1], l[1], f.Labels)
				}
			}
		}
	}
}

// TestDashboardQueriesParse: every dashboard query, with Grafana's
// variables replaced ($__rate_interval by 1m, $client and $service by .*),
// is valid PromQL to promtool check rules.
func TestDashboardQueriesParse(t *testing.T) {
	promtooltest.Require(t)
	vars := strings.NewReplacer("$__rate_interval", "1m", "$client", ".*", "$service", ".*")
	var b strings.Builder
	b.WriteString("groups:\n  - name: dashboard\n    rules:\n")
	for i, q := range dashboardQueries(t) {
		if strings.HasPrefix(q, "label_values(") {
			continue // a Grafana function, not PromQL
		}
		fmt.Fprintf(&b, "      - record: dashboard:query_%d\n        expr: '%s'\n", i, strings.ReplaceAll(vars.Replace(q), "'", "''"))
	}
	p := filepath.Join(t.TempDir(), "dashboard.rules.yml")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := promtool.Run(context.Background(), nil, "check", "rules", p)
	if err != nil || r.Code != 0 {
		t.Errorf("promtool check rules: %v exit %d\n%s%s", err, r.Code, r.Stdout, r.Stderr)
	}
}

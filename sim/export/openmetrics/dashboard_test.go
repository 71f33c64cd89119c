package openmetrics

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

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

// TestDashboardQueriesAnswer runs every query of the Grafana dashboard
// against a Prometheus server over a TSDB block made from an export
// (breaker-fallback: a breaker, a fallback, retries, a fault), at the end
// of the run, with Grafana's variables set as a user's "All" would
// ($client and $service .*, $__rate_interval 1m). Each query must succeed,
// and every query whose metrics the export holds must return a series: a
// panel that stays empty on data that has its metrics is a broken panel.
// The template variables' label_values queries must list values.
func TestDashboardQueriesAnswer(t *testing.T) {
	promtooltest.Require(t)
	prom := promtooltest.RequireProgram(t, "prometheus")
	res := runFile(t, bundled+"breaker-fallback.toml")
	dir := t.TempDir()
	om, db := filepath.Join(dir, "metrics.om"), filepath.Join(dir, "data")
	b := export(t, res, Options{})
	if err := os.WriteFile(om, b, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if r, err := promtool.Run(ctx, nil, "tsdb", "create-blocks-from", "openmetrics", om, db); err != nil || r.Code != 0 {
		t.Fatalf("create-blocks-from: %v exit %d\n%s", err, r.Code, r.Stderr)
	}
	base := promtooltest.StartPrometheus(ctx, t, prom, dir, db)
	at := DefaultStart.Add(res.Duration)
	vars := strings.NewReplacer("$__rate_interval", "1m", "$client", ".*", "$service", ".*")
	labelValues := regexp.MustCompile(`^label_values\((\w+), (\w+)\)$`)
	exported := string(b)
	for _, q := range dashboardQueries(t) {
		if m := labelValues.FindStringSubmatch(q); m != nil {
			if n := apiCount(ctx, t, fmt.Sprintf("%s/api/v1/label/%s/values?match[]=%s", base, m[2], url.QueryEscape(m[1]))); n == 0 {
				t.Errorf("%s: no values", q)
			}
			continue
		}
		n := apiCount(ctx, t, fmt.Sprintf("%s/api/v1/query?query=%s&time=%d", base, url.QueryEscape(vars.Replace(q)), at.Unix()))
		held := true
		for _, ref := range metricRef.FindAllStringSubmatch(q, -1) {
			held = held && strings.Contains(exported, "\n"+ref[1])
		}
		if held && n == 0 {
			t.Errorf("%s: no series, though the export has its metrics", q)
		}
	}
}

// apiCount asks the Prometheus HTTP API u and returns how many results
// (series, or label values) it answered; a failed request fails the test.
func apiCount(ctx context.Context, t *testing.T, u string) int {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r struct {
		Status, Error string
		Data          json.RawMessage
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil || r.Status != "success" {
		t.Fatalf("%s: status %q %s (%v)", u, r.Status, r.Error, err)
	}
	var list []json.RawMessage // label values
	if json.Unmarshal(r.Data, &list) == nil {
		return len(list)
	}
	var vec struct{ Result []json.RawMessage }
	if err := json.Unmarshal(r.Data, &vec); err != nil {
		t.Fatalf("%s: %v", u, err)
	}
	return len(vec.Result)
}

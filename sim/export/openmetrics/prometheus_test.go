package openmetrics

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/ressim/ressim/internal/promtool"
	"github.com/ressim/ressim/internal/promtool/promtooltest"
)

// TestPrometheusQueriesBlock loads breaker-fallback's export into a block
// (promtool tsdb create-blocks-from openmetrics), starts a Prometheus
// server on it, and asks it PromQL: the users' good-responses counter at
// the end is the export's, and rate() over 10 s just before the fault
// (t = 19 s) is the simulated goodput of those intervals, within 2 % (the
// rate is extrapolated from 10 samples 1 s apart to the 10 s window).
func TestPrometheusQueriesBlock(t *testing.T) {
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

	sel := `ressim_client_responses_total{client="users",outcome="good"}`
	want, _ := lastSample(t, b, sel)
	end := DefaultStart.Add(res.Duration)
	if got := query(ctx, t, base, sel, end); got != want {
		t.Errorf("%s at the end: Prometheus says %v, the export %v", sel, got, want)
	}
	at := 19 * time.Second
	rate := query(ctx, t, base, "rate("+sel+"[10s])", DefaultStart.Add(at))
	col := res.Series.Find("users", "goodput")
	mean := 0.0
	for i := 9; i < 19; i++ { // intervals ending at 10 s .. 19 s
		mean += col.Value(i) / 10
	}
	if math.Abs(rate-mean) > 0.02*mean {
		t.Errorf("rate over 10 s at %v: %v, simulated goodput %v", at, rate, mean)
	}
}

// query runs an instant PromQL query and returns its single value.
func query(ctx context.Context, t *testing.T, base, q string, at time.Time) float64 {
	t.Helper()
	u := fmt.Sprintf("%s/api/v1/query?query=%s&time=%d", base, url.QueryEscape(q), at.Unix())
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
		Status string
		Error  string
		Data   struct {
			Result []struct {
				Value [2]any
			}
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	if r.Status != "success" || len(r.Data.Result) != 1 {
		t.Fatalf("%s: status %s %s, %d results", q, r.Status, r.Error, len(r.Data.Result))
	}
	s, _ := r.Data.Result[0].Value[1].(string)
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%s: value %v", q, r.Data.Result[0].Value[1])
	}
	return v
}

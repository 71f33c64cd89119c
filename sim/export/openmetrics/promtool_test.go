package openmetrics

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ressim/ressim/internal/promtool"
	"github.com/ressim/ressim/internal/promtool/promtooltest"
)

// TestPromtoolCheckMetrics lints the Prometheus text export (metrics.prom)
// of every bundled experiment with promtool check metrics: it must print
// nothing and exit 0.
func TestPromtoolCheckMetrics(t *testing.T) {
	promtooltest.Require(t)
	files, err := filepath.Glob(bundled + "*.toml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no bundled experiments: %v", err)
	}
	// The harness must see a lint problem: a counter without _total.
	r, err := promtool.Run(context.Background(), strings.NewReader("# HELP x a\n# TYPE x counter\nx 1\n"), "check", "metrics")
	if err != nil || r.Code == 0 {
		t.Fatalf("promtool check metrics accepted a counter without _total: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			prom := export(t, runFile(t, f), Options{Format: PrometheusText})
			r, err := promtool.Run(context.Background(), bytes.NewReader(prom), "check", "metrics")
			if err != nil {
				t.Fatal(err)
			}
			if r.Code != 0 || len(r.Stdout)+len(r.Stderr) > 0 {
				t.Errorf("promtool check metrics: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
			}
		})
	}
}

// TestPromtoolTSDB loads an export into a TSDB block with promtool tsdb
// create-blocks-from openmetrics (Prometheus' strict OpenMetrics parser)
// and reads the simulated goodput back from the block with promtool tsdb
// dump: the good-responses counter's last value in the block is the
// export's. promtool 2.42 has no offline PromQL over a block;
// TestPrometheusQueriesBlock asks a server.
func TestPromtoolTSDB(t *testing.T) {
	promtooltest.Require(t)
	res := runFile(t, bundled+"breaker-fallback.toml")
	dir := t.TempDir()
	om := filepath.Join(dir, "metrics.om")
	b := export(t, res, Options{})
	if err := os.WriteFile(om, b, 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "data")
	ctx := context.Background()
	r, err := promtool.Run(ctx, nil, "tsdb", "create-blocks-from", "openmetrics", om, db)
	if err != nil || r.Code != 0 {
		t.Fatalf("create-blocks-from: %v exit %d\n%s%s", err, r.Code, r.Stdout, r.Stderr)
	}
	// dump opens the directory as a database, which wants a WAL folder.
	if err := os.Mkdir(filepath.Join(db, "wal"), 0o755); err != nil {
		t.Fatal(err)
	}
	sel := `ressim_client_responses_total{client="users",outcome="good"}`
	r, err = promtool.Run(ctx, nil, "tsdb", "dump", "--match="+sel, db)
	if err != nil || r.Code != 0 {
		t.Fatalf("tsdb dump: %v exit %d\n%s", err, r.Code, r.Stderr)
	}
	lines := strings.Split(strings.TrimSpace(string(r.Stdout)), "\n")
	// One sample per interval plus the counter's 0 at the start.
	if len(lines) != res.Series.Len()+1 {
		t.Fatalf("block holds %d samples of %s, want %d", len(lines), sel, res.Series.Len()+1)
	}
	f := strings.Fields(lines[len(lines)-1])
	want, wantTS := lastSample(t, b, `ressim_client_responses_total{client="users",outcome="good"}`)
	got, _ := strconv.ParseFloat(f[len(f)-2], 64)
	if got != want || got == 0 {
		t.Errorf("goodput counter in the block %v, exported %v", got, want)
	}
	if ms := f[len(f)-1]; ms != wantTS+"000" {
		t.Errorf("last sample at %s ms, exported at %s s", ms, wantTS)
	}
}

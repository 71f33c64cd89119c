package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ressim/ressim/internal/promtool"
	"github.com/ressim/ressim/internal/promtool/promtooltest"
	"github.com/ressim/ressim/internal/pyom"
	"github.com/ressim/ressim/internal/pyom/pyomtest"
)

// TestRunOpenMetrics: --openmetrics writes metrics.om with samples stamped
// from --openmetrics-start (2030-01-01T00:00:00Z is 1893456000 s), ending
// in # EOF, latency histograms included; a start that is not RFC 3339 is a
// usage error.
func TestRunOpenMetrics(t *testing.T) {
	dir := t.TempDir()
	code, _, errOut := ressim("run", small, "-o", dir, "--no-plots", "--openmetrics", "--openmetrics-start", "2030-01-01T00:00:00Z")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(filepath.Join(dir, OpenMetricsFile))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if !strings.HasPrefix(s, "# TYPE ") || !strings.HasSuffix(s, "# EOF\n") || !strings.Contains(s, " 1893456001\n") {
		t.Errorf("metrics.om is not an OpenMetrics export from 2030-01-01:\n%.300s", s)
	}
	// The latency histograms are recorded for the export only (the model
	// skips them otherwise): they must be there.
	if !strings.Contains(s, " histogram\n") || !strings.Contains(s, "_bucket{") {
		t.Error("metrics.om has no latency histogram family")
	}
	if code, _, _ := ressim("run", small, "-o", dir, "--no-plots", "--openmetrics", "--openmetrics-start", "yesterday"); code != exitInvalid {
		t.Errorf("bad --openmetrics-start: exit %d, want %d", code, exitInvalid)
	}
	if _, out, _ := ressim("run", "--help"); !strings.Contains(out, "--prometheus-text") || !strings.Contains(out, PrometheusTextFile) {
		t.Error("ressim run --help does not list --prometheus-text and " + PrometheusTextFile)
	}
}

// TestRunMetricsExportsParse runs every bundled experiment's base model
// with --openmetrics and --prometheus-text and hands each file to the
// parser made for it: metrics.om to prometheus_client's reference
// OpenMetrics parser, metrics.prom to promtool check metrics (which must
// print nothing and exit 0). Each skips without its tool, and fails
// without it when CI is set. Prometheus' Go parsers are not a dependency
// of ressim, so nothing parses in-process.
func TestRunMetricsExportsParse(t *testing.T) {
	py := pyomtest.Require(t)
	promtooltest.Require(t)
	files, err := filepath.Glob("../../experiments/*.toml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no bundled experiments: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			code, _, errOut := ressim("run", f, "-o", dir, "--no-plots", "--openmetrics", "--prometheus-text")
			if code != exitOK && code != exitExpect {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			om, err := os.Open(filepath.Join(dir, OpenMetricsFile))
			if err != nil {
				t.Fatal(err)
			}
			defer om.Close()
			if _, err := pyom.Parse(context.Background(), py, om); err != nil {
				t.Errorf("%s: %v", OpenMetricsFile, err)
			}
			prom, err := os.Open(filepath.Join(dir, PrometheusTextFile))
			if err != nil {
				t.Fatal(err)
			}
			defer prom.Close()
			r, err := promtool.Run(context.Background(), prom, "check", "metrics")
			if err != nil {
				t.Fatal(err)
			}
			if r.Code != 0 || len(r.Stdout)+len(r.Stderr) > 0 {
				t.Errorf("promtool check metrics %s: exit %d\n%s%s", PrometheusTextFile, r.Code, r.Stdout, r.Stderr)
			}
		})
	}
}

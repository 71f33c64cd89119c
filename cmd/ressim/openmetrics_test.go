package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
}

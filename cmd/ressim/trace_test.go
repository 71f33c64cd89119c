package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTraceFormat: --trace-format picks the trace files, perfetto (the
// default) trace.json only, otlp trace.otlp.json only, both the two; and
// trace.otlp.json's times start at --openmetrics-start.
func TestTraceFormat(t *testing.T) {
	for _, c := range []struct {
		format       string
		json, otlpOK bool
	}{{"", true, false}, {"perfetto", true, false}, {"otlp", false, true}, {"both", true, true}} {
		dir := t.TempDir()
		args := []string{"run", small, "-o", dir, "--no-plots", "--trace", "10", "--openmetrics-start", "2031-02-03T00:00:00Z"}
		if c.format != "" {
			args = append(args, "--trace-format", c.format)
		}
		if code, _, e := ressim(args...); code != exitOK {
			t.Fatalf("%v: exit %d, %s", args, code, e)
		}
		_, errJSON := os.Stat(filepath.Join(dir, "trace.json"))
		otlp, errOTLP := os.ReadFile(filepath.Join(dir, "trace.otlp.json"))
		if (errJSON == nil) != c.json || (errOTLP == nil) != c.otlpOK {
			t.Errorf("--trace-format %q: trace.json %v, trace.otlp.json %v; want %v, %v", c.format, errJSON == nil, errOTLP == nil, c.json, c.otlpOK)
		}
		// 2031-02-03T00:00:00Z is 1927843200 s after the Unix epoch; the run
		// is shorter than 100 s.
		if c.otlpOK && !strings.Contains(string(otlp), `"startTimeUnixNano":"19278432`) {
			t.Errorf("--trace-format %q: no span starts at --openmetrics-start", c.format)
		}
	}
}

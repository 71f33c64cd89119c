package spans

import (
	"os"
	"path/filepath"
	"testing"
)

// shared is where the real telemetry samples live, beside the worktree;
// tests that read them skip when they are absent.
var sharedDir = filepath.Join("..", "..", "..", "..", "shared", "telemetry")

func realFile(t *testing.T, rel string) string {
	t.Helper()
	p := filepath.Join(sharedDir, rel)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("real sample %s not present", p)
	}
	return p
}

func TestRealSamples(t *testing.T) {
	for _, c := range []struct {
		file     string
		format   Format
		min, max int // bounds on the span count
		services int // the least number of distinct services
	}{
		{"otlp/trace.json", OTLP, 1, 1, 1},
		{"zipkin/yelp.json", Zipkin, 16, 16, 4},
		{"zipkin/ascend.json", Zipkin, 8, 8, 3},
		{"zipkin/smartthings-oauth-authorization.json", Zipkin, 175, 175, 8},
		{"zipkin/smartthings-mobile-web-install.json", Zipkin, 1041, 1041, 16},
		{"trastrainer-hipster/trace/04_25_trace.csv", CSV, 20000, 25000, 10},
		{"trastrainer-hipster/trace/04_26_trace.csv", CSV, 20000, 25000, 10},
		{"trastrainer-trainticket/trace/15_30_trace.csv", CSV, 3000, 4000, 25},
		{"trastrainer-trainticket/trace/15_31_trace.csv", CSV, 2000, 3500, 25},
	} {
		t.Run(c.file, func(t *testing.T) {
			p := realFile(t, c.file)
			got, f, err := ReadFile(p, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if f != c.format {
				t.Errorf("format %q, want %q", f, c.format)
			}
			services := map[string]bool{}
			untimed, roots := 0, 0
			for i, s := range got {
				services[s.Service] = true
				if s.Start == 0 && s.End == 0 {
					untimed++
				}
				if s.ParentID == "" {
					roots++
				}
				if s.Origin.File != p {
					t.Fatalf("span %d origin %v", i, s.Origin)
				}
				if i > 0 && got[i-1].TraceID > s.TraceID {
					t.Fatalf("spans %d and %d out of trace order", i-1, i)
				}
			}
			t.Logf("%s: %d spans, %d services, %d roots, %d untimed", c.format, len(got), len(services), roots, untimed)
			if len(got) < c.min || len(got) > c.max {
				t.Errorf("%d spans, want %d..%d", len(got), c.min, c.max)
			}
			if len(services) < c.services {
				t.Errorf("%d services, want at least %d", len(services), c.services)
			}
		})
	}
}

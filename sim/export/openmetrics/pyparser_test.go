package openmetrics

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ressim/ressim/internal/pyom"
	"github.com/ressim/ressim/internal/pyom/pyomtest"
)

// TestReferenceParser parses the export of every bundled experiment with
// prometheus_client's openmetrics.parser, the reference parser: it must
// accept it (a summary's quantiles and a histogram's buckets grouped per
// timestamp, timestamps never going backwards within a metric), and every
// family must carry HELP, and UNIT when the catalogue gives one.
func TestReferenceParser(t *testing.T) {
	py := pyomtest.Require(t)
	ctx := context.Background()
	// The harness must see a grouping problem: a summary written one
	// quantile at a time.
	bad := "# TYPE x summary\n# HELP x a\nx{quantile=\"0.5\"} 1 1\nx{quantile=\"0.5\"} 1 2\nx{quantile=\"0.9\"} 1 1\n# EOF\n"
	if _, err := pyom.Parse(ctx, py, strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "went backwards") {
		t.Fatalf("reference parser accepted quantiles written one at a time: %v", err)
	}
	units := make(map[string]string)
	for _, f := range Families() {
		units[f.Name] = f.Unit
	}
	files, err := filepath.Glob(bundled + "*.toml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no bundled experiments: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			b := export(t, runFile(t, f), Options{})
			fams, err := pyom.Parse(ctx, py, bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			if len(fams) == 0 {
				t.Fatal("no families")
			}
			// Every sample line is read as one sample: none dropped as a
			// duplicate.
			lines, samples := 0, 0
			for _, l := range strings.Split(string(b), "\n") {
				if l != "" && !strings.HasPrefix(l, "#") {
					lines++
				}
			}
			for _, fam := range fams {
				samples += fam.Samples
			}
			if samples != lines {
				t.Errorf("parser read %d samples of %d sample lines", samples, lines)
			}
			for _, fam := range fams {
				u, ok := units[fam.Name]
				switch {
				case !ok:
					t.Errorf("family %s not in the catalogue", fam.Name)
				case !fam.Help:
					t.Errorf("family %s has no HELP", fam.Name)
				case fam.Unit != u:
					t.Errorf("family %s has unit %q, want %q", fam.Name, fam.Unit, u)
				}
			}
		})
	}
}

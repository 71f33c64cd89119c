package promql

import (
	"os"
	"strings"
	"testing"
)

// TestSubsetDocumented: docs/observability.md's section on the subset
// names every function and aggregation the parser accepts, and the tests
// that check it against promtool.
func TestSubsetDocumented(t *testing.T) {
	b, err := os.ReadFile("../../../docs/observability.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "\n## The page's PromQL subset\n")
	if !ok {
		t.Fatal("docs/observability.md has no section \"The page's PromQL subset\"")
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	var names []string
	for name := range functions {
		names = append(names, name)
	}
	names = append(names, aggregations...)
	for _, n := range names {
		if !strings.Contains(sec, "`"+n+"`") {
			t.Errorf("the section does not name `%s`", n)
		}
	}
	for _, test := range []string{"TestSubsetMatchesPromtool", "TestSubsetCoverageMatchesPromtool", "TestSubsetSyntheticMatchesPromtool"} {
		if !strings.Contains(sec, test) {
			t.Errorf("the section does not name %s", test)
		}
	}
}

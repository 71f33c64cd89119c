package experiment

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRangesDocumented: the row of each key of numericKeys in
// docs/experiment-format.md states the range the reader checks, written
// as Range.String writes it.
func TestRangesDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "experiment-format.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(doc), "\n")
	for _, k := range numericKeys {
		row := docRow(lines, k.Section, k.Key)
		if row == "" {
			t.Errorf("no row for %s in a section %s", k.Key, k.Section)
			continue
		}
		if !strings.Contains(row, k.Range.String()) {
			t.Errorf("%s %s: the row does not say %q:\n%s", k.Section, k.Key, k.Range.String(), row)
		}
	}
}

// docRow returns the first table row for key after the first heading
// that contains section.
func docRow(lines []string, section, key string) string {
	in := false
	for _, l := range lines {
		if strings.HasPrefix(l, "#") && strings.Contains(l, section) {
			in = true
		}
		if in && strings.HasPrefix(l, "| `"+key+"` |") {
			return l
		}
	}
	return ""
}

func TestRangeContains(t *testing.T) {
	for _, tt := range []struct {
		g    Range
		x    float64
		want bool
	}{
		{Range{Lo: 0, Hi: 100, OpenLo: true}, 0, false},
		{Range{Lo: 0, Hi: 100, OpenLo: true}, 100, true},
		{Range{Lo: 0, Hi: 1, OpenLo: true, OpenHi: true}, 1, false},
		{Range{Lo: 1e-6, Hi: 1000, Zero: true}, 0, true},
		{Range{Lo: 1e-6, Hi: 1000, Zero: true}, 1e-7, false},
		{Range{Lo: 1e-6, Hi: 1000, Zero: true}, 1000, true},
		{Range{Lo: 0, Hi: 1}, -0.0, true},
	} {
		if got := tt.g.contains(tt.x); got != tt.want {
			t.Errorf("%v contains %g = %v", tt.g, tt.x, got)
		}
	}
	if s := (Range{Lo: 1e-6, Hi: 1000, Zero: true}).String(); s != "`0` or in [10^-6, 1000]" {
		t.Errorf("String = %q", s)
	}
	if s := (Range{Lo: 1, Hi: 1 << 20}).String(); s != "in [1, 2^20]" {
		t.Errorf("String = %q", s)
	}
}

package experiment

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
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
		row := docRow(lines, k.Section, k.Key, k.Row)
		if row == "" {
			t.Errorf("no row for %s in a section %s", k.Key, k.Section)
			continue
		}
		if !strings.Contains(row, k.Range.String()) {
			t.Errorf("%s %s: the row does not say %q:\n%s", k.Section, k.Key, k.Range.String(), row)
		}
	}
}

// docRow returns the first line that starts with row ("| `key` |" when
// row is empty) after the first heading that contains section, with its
// continuation lines (those indented under a list item, or the rest of a
// paragraph).
func docRow(lines []string, section, key, row string) string {
	if row == "" {
		row = "| `" + key + "` |"
	}
	in := false
	for i, l := range lines {
		if strings.HasPrefix(l, "#") && strings.Contains(l, section) {
			in = true
		}
		if in && strings.HasPrefix(l, row) {
			text := l
			for _, next := range lines[i+1:] {
				if strings.HasPrefix(l, "|") || next == "" || strings.HasPrefix(next, "- ") || strings.HasPrefix(next, "|") {
					break
				}
				text += "\n" + next
			}
			return text
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
		{Range{Lo: 0, Hi: 1}, math.Copysign(0, -1), true}, // negative zero
	} {
		if got := tt.g.contains(tt.x); got != tt.want {
			t.Errorf("%v contains %g = %v", tt.g, tt.x, got)
		}
	}
	if s := (Range{Lo: 1e-6, Hi: 1000, Zero: true}).String(); s != "`0` or in [10^-6, 1000]" {
		t.Errorf("String = %q", s)
	}
	if s := (Range{Lo: 1, Hi: 1 << 20, Int: true}).String(); s != "1 to 2^20" {
		t.Errorf("String = %q", s)
	}
}

// TestSecurityLimitsDocumented: docs/security.md's table of input limits
// states the values of the Go constants.
func TestSecurityLimitsDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "security.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, row string }{
		{"experiment.MaxFileSize", fmt.Sprintf("1 MiB (%s bytes)", spaced(MaxFileSize))},
		{"experiment.MaxDepth", fmt.Sprintf("| %d levels", MaxDepth)},
		{"experiment.MaxKeyLength", fmt.Sprintf("| %d bytes", MaxKeyLength)},
		{"experiment.MaxKeys", fmt.Sprintf("| %s (", spaced(MaxKeys))},
		{"experiment.MaxErrors", fmt.Sprintf("| %d, then", MaxErrors)},
		{"experiment.MaxReplications", fmt.Sprintf("| %s |", spaced(MaxReplications))},
		{"experiment.MaxVariants", fmt.Sprintf("| %d `[[variant]]`", MaxVariants)},
		{"experiment.MaxSweepChecks", fmt.Sprintf("| %s (cells", spaced(MaxSweepChecks))},
		{"experiment.MaxSweepWork", "| 2 x 10^7 ("},
		{"maxCellErrors", fmt.Sprintf("| %d reported", maxCellErrors)},
	} {
		row := ""
		for _, l := range strings.Split(string(doc), "\n") {
			if strings.Contains(l, "`"+tt.name+"`") {
				row = l
			}
		}
		if !strings.Contains(row, tt.row) {
			t.Errorf("%s: row %q lacks %q", tt.name, row, tt.row)
		}
	}
	if MaxSweepWork != 2e7 {
		t.Errorf("MaxSweepWork = %d; update docs/security.md", MaxSweepWork)
	}
}

// spaced writes n with a space between thousands, as the docs do.
func spaced(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + " " + s[i:]
	}
	return s
}

// TestRangeOfCallsResolve: every literal rangeOf(section, key) in the
// reader names an entry of numericKeys (a missing one would reject every
// value).
func TestRangeOfCallsResolve(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	re := regexp.MustCompile("rangeOf\\(\"([^\"]+)\", \"([^\"]+)\"\\)")
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(src), -1) {
			n++
			if rangeOf(m[1], m[2]).Hi < rangeOf(m[1], m[2]).Lo {
				t.Errorf("%s: rangeOf(%q, %q) is not in numericKeys", f, m[1], m[2])
			}
		}
	}
	if n < 30 {
		t.Errorf("found only %d rangeOf calls", n)
	}
}

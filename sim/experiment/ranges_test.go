package experiment

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/topology"
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
		if !strings.Contains(row, k.rng().String()) {
			t.Errorf("%s %s: the row does not say %q:\n%s", k.Section, k.Key, k.rng().String(), row)
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

// TestEverySettingDocumented: numericKeys places every setting of
// topology's range table in the documentation, once, so that
// TestRangesDocumented checks every range the model and the reader share.
func TestEverySettingDocumented(t *testing.T) {
	seen := map[topology.Setting]int{}
	for _, k := range numericKeys {
		if k.Setting != "" {
			seen[k.Setting]++
			if k.Setting.Key() != k.Key {
				t.Errorf("%s is documented as key %q", k.Setting, k.Key)
			}
		}
	}
	for _, r := range topology.SettingRanges() {
		if seen[r.Setting] != 1 {
			t.Errorf("%s: %d rows in numericKeys, want 1", r.Setting, seen[r.Setting])
		}
	}
}

package notebooks

import (
	"encoding/json"
	"os"
	"regexp"
	"testing"
)

// assertLine matches a Python assert statement at the start of a line: the
// answer checks of a lab.
var assertLine = regexp.MustCompile(`(?m)^\s*assert\b`)

// TestNotebooksChecksHidden fails if a student would see a lab's answer
// checks: every code cell that asserts must be tagged "check" and
// "hide-input" and collapsed (jupyter.source_hidden, hide_input), its
// outputs left visible so a failing check still shows why. A tag on any
// other cell fails too (it would hide a cell the students need), and
// every lab must have its checks: TestNotebooksExecute runs them.
func TestNotebooksChecksHidden(t *testing.T) {
	for _, f := range labs(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var nb notebook
		if err := json.Unmarshal(b, &nb); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		checks := 0
		for i, c := range nb.Cells {
			m := c.Metadata
			asserts := c.CellType == "code" && assertLine.MatchString(source(c.Source))
			tagged := m.has("check")
			switch {
			case asserts && !tagged:
				t.Errorf("%s: cell %d asserts but is not tagged \"check\": students see the answer checks", f, i)
			case tagged && !asserts:
				t.Errorf("%s: cell %d is tagged \"check\" but asserts nothing: the tag would hide a cell students need", f, i)
			}
			if !tagged {
				if m.has("hide-input") || m.Jupyter.SourceHidden || m.HideInput {
					t.Errorf("%s: cell %d is hidden but is not a check", f, i)
				}
				continue
			}
			checks++
			if !m.has("hide-input") || !m.Jupyter.SourceHidden || !m.HideInput {
				t.Errorf("%s: check cell %d is not collapsed: want tags check and hide-input, jupyter.source_hidden and hide_input true; metadata %+v", f, i, m)
			}
			if m.Jupyter.OutputsHidden {
				t.Errorf("%s: check cell %d hides its outputs: a failing check would not say why", f, i)
			}
		}
		if checks == 0 {
			t.Errorf("%s: no check cell (a code cell with asserts, tagged \"check\")", f)
		}
	}
}

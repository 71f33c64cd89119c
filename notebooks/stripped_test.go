package notebooks

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
)

// notebook is the part of an .ipynb file the tests read.
type notebook struct {
	Cells []struct {
		CellType       string          `json:"cell_type"`
		Source         json.RawMessage `json:"source"`
		Outputs        []any           `json:"outputs"`
		ExecutionCount *int            `json:"execution_count"`
		Metadata       cellMetadata    `json:"metadata"`
	} `json:"cells"`
	Metadata struct {
		Kernelspec struct {
			Name string `json:"name"`
		} `json:"kernelspec"`
	} `json:"metadata"`
}

// cellMetadata is the part of a cell's metadata that hides it: tags
// (Jupyter Book, nbconvert's TagRemovePreprocessor), jupyter.source_hidden
// (JupyterLab and Notebook 7 collapse the input) and hide_input (the
// classic notebook's hide_input extension).
type cellMetadata struct {
	Tags    []string `json:"tags"`
	Jupyter struct {
		SourceHidden  bool `json:"source_hidden"`
		OutputsHidden bool `json:"outputs_hidden"`
	} `json:"jupyter"`
	HideInput bool `json:"hide_input"`
}

// has reports whether the cell carries tag.
func (m cellMetadata) has(tag string) bool {
	for _, t := range m.Tags {
		if t == tag {
			return true
		}
	}
	return false
}

// labs lists the committed notebooks, failing if there are none.
func labs(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("labs", "*.ipynb"))
	if err != nil || len(files) != 11 {
		t.Fatalf("want the 11 labs in labs/, found %d (%v)", len(files), err)
	}
	return files
}

// source joins a cell's source, a string or a list of lines in nbformat 4.
func source(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var lines []string
	_ = json.Unmarshal(raw, &lines)
	return strings.Join(lines, "")
}

const sourceTitle = "«Устойчивость: circuit breaker, retry, bulkhead, backpressure, деградация»"

// TestNotebooksStripped fails if a committed notebook carries outputs or
// execution counts (run them, then clear the outputs before committing),
// does not use the python3 kernel, or does not cite its source section.
func TestNotebooksStripped(t *testing.T) {
	for _, f := range labs(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var nb notebook
		if err := json.Unmarshal(b, &nb); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if nb.Metadata.Kernelspec.Name != "python3" {
			t.Errorf("%s: kernel %q, want python3", f, nb.Metadata.Kernelspec.Name)
		}
		all := ""
		for i, c := range nb.Cells {
			all += source(c.Source)
			if len(c.Outputs) != 0 || c.ExecutionCount != nil {
				t.Errorf("%s: cell %d has outputs or an execution count; clear them before committing", f, i)
			}
		}
		if !strings.Contains(all, sourceTitle+", section ") {
			t.Errorf("%s: does not cite %s with its section", f, sourceTitle)
		}
	}
}

// TestNotebooksExperimentsLoad checks that every experiment a lab names
// exists and is valid, so a renamed file fails here even without Jupyter.
func TestNotebooksExperimentsLoad(t *testing.T) {
	ref := regexp.MustCompile(`experiments/[\w.-]+\.toml`)
	for _, f := range labs(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		names := ref.FindAllString(string(b), -1)
		if len(names) == 0 {
			t.Errorf("%s: runs no bundled experiment", f)
		}
		for _, n := range names {
			if _, err := experiment.Load(filepath.Join("..", n)); err != nil {
				t.Errorf("%s: %s: %v", f, n, err)
			}
		}
	}
}

package experiment

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestDocExamples loads every ```toml block of docs/experiment-format.md,
// so the documentation cannot drift from the loader.
func TestDocExamples(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "experiment-format.md")
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```toml\n(.*?)```").FindAllSubmatch(doc, -1)
	if len(blocks) < 2 {
		t.Fatalf("found %d toml examples in %s", len(blocks), path)
	}
	for i, b := range blocks {
		if _, err := Parse(path, b[1]); err != nil {
			t.Errorf("example %d: %v", i+1, err)
		}
	}
}

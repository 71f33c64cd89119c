package experiment

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHostileCorpus parses each file of testdata/hostile, files that
// ressim once accepted, silently ignored in part, or reported badly. Each
// begins with "# error: " lines: the exact error text expected, one line
// per problem, in file order.
func TestHostileCorpus(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "hostile", "*.toml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, line := range strings.Split(string(src), "\n") {
				if w, ok := strings.CutPrefix(line, "# error: "); ok {
					want = append(want, w)
				}
			}
			if len(want) == 0 {
				t.Fatal("no # error: line")
			}
			_, err = Parse(filepath.Base(f), src)
			if err == nil {
				t.Fatalf("accepted; want\n%s", strings.Join(want, "\n"))
			}
			if got := err.Error(); got != strings.Join(want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", got, strings.Join(want, "\n"))
			}
		})
	}
}

package budget

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPurity keeps the package a pure policy: standard library and the
// shared policies vocabulary only, no randomness of its own, and no clock,
// sleep, timer, ticker or goroutine (checked in the source text, comments
// included, so that none slips in even as an example).
func TestPurity(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			first, _, _ := strings.Cut(p, "/")
			if strings.Contains(first, ".") && p != "github.com/ressim/ressim/sim/policies" {
				t.Errorf("%s imports %s: policies use the standard library only", name, p)
			}
			if p == "math/rand" || p == "math/rand/v2" {
				t.Errorf("%s imports %s: randomness must be passed in", name, p)
			}
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"time.Now", "time.Since", "time.Until", "time.Sleep", "time.After",
			"time.Tick", "time.NewTimer", "time.NewTicker", "time.Timer", "go func", "sync."} {
			if strings.Contains(string(src), bad) {
				t.Errorf("%s mentions %s", name, bad)
			}
		}
	}
}

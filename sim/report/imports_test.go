package report

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestNoSimulatorImports keeps the package independent of the simulator
// and free of wall-clock and global-random calls.
func TestNoSimulatorImports(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	forbidden := []string{"/sim/engine", "/sim/topology", "/sim/policies", "/sim/metrics"}
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
			for _, bad := range forbidden {
				if strings.Contains(p, bad) {
					t.Errorf("%s imports %s", name, p)
				}
			}
			if p == "math/rand" || p == "math/rand/v2" {
				t.Errorf("%s imports %s: randomness must be passed in", name, p)
			}
		}
		src, _ := os.ReadFile(name)
		for _, call := range []string{"time.Now", "time.Sleep", "time.After", "time.NewTimer", "time.NewTicker", "go func"} {
			if strings.Contains(string(src), call) {
				t.Errorf("%s uses %s", name, call)
			}
		}
	}
}

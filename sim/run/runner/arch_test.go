package runner

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestOnlyTheRunnerRuns keeps this package the one way to run a model:
// outside tests, no file of the module but this package's calls
// topology.New (the model's only constructor, without which there is no
// Model to Run) or installs a guard of its own (SetGuard). A command that
// simulated beside the runner would run without a budget, as alerts,
// lint --simulate and merge once did.
func TestOnlyTheRunnerRuns(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	const topo = "github.com/ressim/ressim/sim/topology"
	fset := token.NewFileSet()
	var found []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n != "." && n != ".." && (strings.HasPrefix(n, ".") || n == "testdata" || n == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		if strings.HasSuffix(dir, "sim/run/runner") || strings.HasSuffix(dir, "sim/topology") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		local := "" // the name topology is imported under in this file
		for _, im := range f.Imports {
			if p, _ := strconv.Unquote(im.Path.Value); p == topo {
				local = "topology"
				if im.Name != nil {
					local = im.Name.Name
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && local != "" && id.Name == local && sel.Sel.Name == "New" {
				found = append(found, fset.Position(call.Pos()).String()+": topology.New")
			}
			if sel.Sel.Name == "SetGuard" {
				found = append(found, fset.Position(call.Pos()).String()+": SetGuard")
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range found {
		t.Errorf("%s: build and run models through runner.Meter.Run", f)
	}
}

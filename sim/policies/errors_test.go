package policies_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestErrInvalidConfigConvention checks the error convention of the policy
// packages: each declares
//
//	var ErrInvalidConfig = errors.New("<package>: invalid config")
//
// so that callers test configuration errors with errors.Is, and its config
// errors wrap it with the field's name ("%w: Target 0s: must be positive").
// Package wall is included: its Config is a configuration too.
func TestErrInvalidConfigConvention(t *testing.T) {
	dirs, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range dirs {
		if !d.IsDir() || d.Name() == "testdata" {
			continue
		}
		n++
		want := strconv.Quote(d.Name() + ": invalid config")
		if got := errInvalidConfigText(t, d.Name()); got != want {
			t.Errorf("package %s: ErrInvalidConfig = errors.New(%s), want errors.New(%s)", d.Name(), got, want)
		}
	}
	if n < 14 {
		t.Fatalf("found %d policy packages, want at least 14", n)
	}
}

// errInvalidConfigText returns the literal given to errors.New for the
// package-level ErrInvalidConfig of the package in dir, or "" if none.
func errInvalidConfigText(t *testing.T, dir string) string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, id := range vs.Names {
					if id.Name != "ErrInvalidConfig" || i >= len(vs.Values) {
						continue
					}
					if call, ok := vs.Values[i].(*ast.CallExpr); ok && len(call.Args) == 1 {
						if lit, ok := call.Args[0].(*ast.BasicLit); ok {
							return lit.Value
						}
					}
				}
			}
		}
	}
	return ""
}

// Package roomcheck is a test helper that keeps a package's functions and
// files short enough to read.
package roomcheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Limits are the sizes Check enforces, in lines. Zero disables a limit.
type Limits struct {
	File, Func int
	// Exempt names the functions allowed over Func ("name" or
	// "name@file.go"), each with the reason why it reads better whole.
	// An exemption for a function that is no longer long is an error,
	// so the list cannot go stale.
	Exempt map[string]string
}

// Check parses the non-test .go files of the current directory (the
// package under test) and reports, through t, every file and function
// over the limits.
func Check(t testing.TB, l Limits) {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	used := map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		if n := fset.Position(f.End()).Line; l.File > 0 && n > l.File {
			t.Errorf("%s: %d lines, more than %d: split it by concept", name, n, l.File)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || l.Func == 0 {
				continue
			}
			n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
			if n <= l.Func {
				continue
			}
			key := fd.Name.Name
			if _, ok := l.Exempt[key]; !ok {
				key = fd.Name.Name + "@" + name
			}
			if _, ok := l.Exempt[key]; ok {
				used[key] = true
				continue
			}
			t.Errorf("%s: %s is %d lines, more than %d", name, fd.Name.Name, n, l.Func)
		}
	}
	var stale []string
	for k := range l.Exempt {
		if !used[k] {
			stale = append(stale, k)
		}
	}
	sort.Strings(stale)
	for _, k := range stale {
		t.Errorf("exemption %q: no function of that name is over %d lines; remove it", k, l.Func)
	}
}

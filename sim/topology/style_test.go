package topology

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestRoomsStaySmall keeps the package readable: source files under 400
// lines, functions under 60.
func TestRoomsStaySmall(t *testing.T) {
	const maxFile, maxFunc = 400, 60
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		if n := fset.Position(f.End()).Line; n > maxFile {
			t.Errorf("%s: %d lines, more than %d: split it by concept", name, n, maxFile)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; n > maxFunc {
				t.Errorf("%s: %s is %d lines, more than %d", name, fd.Name.Name, n, maxFunc)
			}
		}
	}
}

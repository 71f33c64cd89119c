//go:build !js

package playground

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// verdictKeys are the verdicts the Go code gives: the string constants
// named Verdict... in the non-test files under sim/ (sim/topology's
// recovered, locked_in..., sim/lint's budget), sorted.
func verdictKeys(t *testing.T) []string {
	t.Helper()
	var keys []string
	fset := token.NewFileSet()
	err := filepath.WalkDir(filepath.Join("..", "sim"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					if !strings.HasPrefix(name.Name, "Verdict") || i >= len(vs.Values) {
						continue
					}
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					v, err := strconv.Unquote(lit.Value)
					if err != nil {
						return err
					}
					keys = append(keys, v)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// pageVerdictWords reads the keys and words of app.js's verdictWords
// table.
func pageVerdictWords(t *testing.T) map[string][]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("web", "app.js"))
	if err != nil {
		t.Fatal(err)
	}
	table := regexp.MustCompile(`(?s)\nconst verdictWords = \{\n(.*?)\n\};`).FindSubmatch(b)
	if table == nil {
		t.Fatal("app.js has no verdictWords table (const verdictWords = {...};)")
	}
	entry := regexp.MustCompile(`^\s*("?)([a-z_]*)("?): \[("(?:[^"\\]|\\.)*"), ("(?:[^"\\]|\\.)*")\],$`)
	words := map[string][]string{}
	for _, line := range strings.Split(string(table[1]), "\n") {
		m := entry.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("app.js's verdictWords: cannot read the line %q (want key: [\"short\", \"long\"],)", line)
		}
		short, err1 := strconv.Unquote(m[4])
		long, err2 := strconv.Unquote(m[5])
		if err1 != nil || err2 != nil {
			t.Fatalf("app.js's verdictWords: cannot read the line %q", line)
		}
		words[m[2]] = []string{short, long}
	}
	return words
}

// TestVerdictWords: every verdict the Go code gives has words in the
// page's table, so that none shows as its raw key (no_baseline), and
// none of the words is a snake_case key itself.
func TestVerdictWords(t *testing.T) {
	keys := verdictKeys(t)
	for _, want := range []string{"recovered", "locked_in", "relapsed", "unaffected", "no_baseline", "undetermined"} {
		if !slices.Contains(keys, want) {
			t.Errorf("the scan of sim/ found no Verdict constant %q (found %v): the scan is broken", want, keys)
		}
	}
	words := pageVerdictWords(t)
	snake := regexp.MustCompile(`\b[a-z]+(_[a-z]+)+\b`)
	for _, k := range append(keys, "") { // "": a run without a fault
		w, ok := words[k]
		if !ok {
			t.Errorf("verdict %q has no words in app.js's verdictWords: the page would show it raw", k)
			continue
		}
		for _, s := range w {
			if strings.TrimSpace(s) == "" || snake.MatchString(s) {
				t.Errorf("verdict %q: words %q are empty or snake_case", k, s)
			}
		}
	}
	for k := range words {
		if k != "" && !slices.Contains(keys, k) {
			t.Errorf("app.js's verdictWords has %q, which no Verdict constant in sim/ gives", k)
		}
	}
}

package topology

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies/fallback"
)

// TestFallbackDecidedByPolicy: every fallback the model serves, or fails
// to, is decided by the site's fallback.Feature, whose per-level counters
// are the counting hook: they must match the model's own counters, for a
// fallback that answers (Stale, Generic, Empty) and one that fails a third
// of the time, under a kill switch as well.
func TestFallbackDecidedByPolicy(t *testing.T) {
	for _, lvl := range []fallback.Level{fallback.Stale, fallback.Generic, fallback.Empty} {
		t.Run(lvl.String(), func(t *testing.T) {
			c := oneService(200, 4, 5*ms)
			c.Duration = 4 * time.Second
			c.Clients[0].Call.Guards.Fallback = &FallbackConfig{Level: lvl, FailRate: 1.0 / 3, Latency: constant(ms)}
			c.Faults = []FaultConfig{
				{Kind: ErrorFault, Target: "api", Instance: -1, Rate: 0.5, Start: 0, End: 2 * time.Second},
				{Kind: KillSwitchFault, Target: "api", Instance: -1, Start: 2 * time.Second, End: 3 * time.Second},
			}
			m, err := New(c)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := m.Run(); err != nil {
				t.Fatal(err)
			}
			site := m.clients[0].site
			got := site.guards.feature.Stats()
			served, failed := site.st.win[sFallback], site.st.win[sFallbackFailed]
			if served == 0 || failed == 0 {
				t.Fatalf("the scenario served %d fallbacks, %d failed: it must exercise both", served, failed)
			}
			if got.Served[lvl] != served || got.Degraded() != served || got.Served[fallback.FeatureError] != failed || got.Failed() != failed {
				t.Errorf("feature counted %v; the model served %d at %v and failed %d", got.Served, served, lvl, failed)
			}
		})
	}
}

// TestNoHandWrittenPolicyArithmetic scans the package's sources: the
// deadline and timeout arithmetic belong to sim/policies/deadline and
// sim/policies/timeout, as in package wall. A deadline is held as a
// deadline.Deadline (which has no arithmetic of its own, so "deadline -
// now" cannot compile), and the per-attempt timeout is read only where it
// is handed to the policies.
func TestNoHandWrittenPolicyArithmetic(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	// The functions that may read a call site's timeout field: where it is
	// built, and where it is given to timeout.Policy and
	// deadline.WithTimeout.
	timeoutReaders := map[string]bool{"newSite": true, "timeoutOf": true, "sendAttempt": true}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.StructType:
				for _, fd := range n.Fields.List {
					for _, id := range fd.Names {
						if (id.Name == "dl" || id.Name == "deadline") && exprString(fd.Type) != "deadline.Deadline" {
							t.Errorf("%s: field %s is a %s: hold deadlines as deadline.Deadline", fset.Position(id.Pos()), id.Name, exprString(fd.Type))
						}
						if id.Name == "hasDL" {
							t.Errorf("%s: hasDL: a zero deadline.Deadline means none", fset.Position(id.Pos()))
						}
					}
				}
			case *ast.FuncDecl:
				if n.Body == nil || timeoutReaders[n.Name.Name] {
					return true
				}
				ast.Inspect(n.Body, func(b ast.Node) bool {
					if sel, ok := b.(*ast.SelectorExpr); ok && sel.Sel.Name == "timeout" {
						t.Errorf("%s: %s reads a per-attempt timeout: use timeoutOf (timeout.Policy)", fset.Position(sel.Pos()), n.Name.Name)
					}
					return true
				})
				return false
			}
			return true
		})
	}
}

// exprString renders a type expression like "deadline.Deadline".
func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return exprString(e.X) + "." + e.Sel.Name
	case *ast.StarExpr:
		return "*" + exprString(e.X)
	}
	return "?"
}

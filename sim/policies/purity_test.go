package policies_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// modulePolicies is the import path prefix of the policy packages: the only
// non-standard imports a policy may have.
const modulePolicies = "github.com/ressim/ressim/sim/policies"

// forbiddenTime lists the package time functions that read the clock, sleep
// or start timers. Only package wall may use them.
var forbiddenTime = map[string]bool{
	"Now": true, "Sleep": true, "After": true, "AfterFunc": true,
	"NewTimer": true, "NewTicker": true, "Tick": true, "Since": true, "Until": true,
}

// allowedRand lists the names of math/rand and math/rand/v2 a policy may use:
// types and constructors of a generator the caller owns. Every other
// package-level name (rand.IntN, rand.Float64, rand.Shuffle, rand.Seed, ...)
// draws from, or seeds, the global generator.
var allowedRand = map[string]bool{
	"Rand": true, "Source": true, "Source64": true, "New": true, "NewSource": true,
	"PCG": true, "NewPCG": true, "ChaCha8": true, "NewChaCha8": true,
	"Zipf": true, "NewZipf": true,
}

// forbiddenModule lists the ressim packages a policy must never import, with
// the reason given in the failure message.
var forbiddenModule = map[string]string{
	"github.com/ressim/ressim/sim/engine":        "policies know nothing of the event loop",
	"github.com/ressim/ressim/sim/topology":      "policies know nothing of the model",
	"github.com/ressim/ressim/sim/metrics":       "policies are fed plain values, not metrics",
	"github.com/ressim/ressim/sim/policies/wall": "only production code may use the wall-clock adapter",
}

// checkPurity parses one Go source file (src as for parser.ParseFile: nil
// to read filename) and returns one message per violation of the policy
// conventions of package policies, in source order.
func checkPurity(filename string, src any) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filename, src, 0) // object resolution on: see id.Obj below
	if err != nil {
		return nil, err
	}
	var out []string
	report := func(pos token.Pos, format string, args ...any) {
		out = append(out, fmt.Sprintf("%s: %s", fset.Position(pos), fmt.Sprintf(format, args...)))
	}

	// Local names of the imports that need a closer look.
	var timeNames, randNames []string
	for _, imp := range f.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			return nil, err
		}
		if why, bad := forbiddenModule[path]; bad {
			report(imp.Pos(), "imports %s: %s", path, why)
			continue
		}
		first, _, _ := strings.Cut(path, "/")
		if strings.Contains(first, ".") && path != modulePolicies && !strings.HasPrefix(path, modulePolicies+"/") {
			report(imp.Pos(), "imports %s: policies use the standard library and %s... only", path, modulePolicies)
			continue
		}
		isTime := path == "time"
		isRand := path == "math/rand" || path == "math/rand/v2"
		if !isTime && !isRand {
			continue
		}
		name := filepath.Base(path)
		if isRand {
			name = "rand"
		}
		if imp.Name != nil {
			name = imp.Name.Name
		}
		if name == "." {
			report(imp.Pos(), "dot-imports %s: its clock and global functions could not be told apart", path)
			continue
		}
		if isTime {
			timeNames = append(timeNames, name)
		} else {
			randNames = append(randNames, name)
		}
	}

	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			report(n.Pos(), "go statement: policies start no goroutines")
		case *ast.SelectorExpr:
			id, ok := n.X.(*ast.Ident)
			// id.Obj != nil: the name resolves to a local declaration (a
			// parameter named rand of type *rand.Rand, say), not to the
			// imported package.
			if !ok || id.Obj != nil {
				return true
			}
			switch {
			case slices.Contains(timeNames, id.Name) && forbiddenTime[n.Sel.Name]:
				report(n.Pos(), "uses time.%s: policies take the instant as an argument", n.Sel.Name)
			case slices.Contains(randNames, id.Name) && !allowedRand[n.Sel.Name]:
				report(n.Pos(), "uses the global generator rand.%s: randomness must be passed in", n.Sel.Name)
			}
		}
		return true
	})
	return out, nil
}

// TestPolicyPurity checks every non-test Go file of every policy package
// (everything under sim/policies except the wall-clock adapter, package
// wall) against the conventions of package policies: no clock, sleep, timer
// or ticker, no global randomness, no goroutine, and no import outside the
// standard library and the policy packages.
func TestPolicyPurity(t *testing.T) {
	dirs := map[string]bool{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path == "wall" || d.Name() == "testdata" || (path != "." && strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		dirs[filepath.Dir(path)] = true
		msgs, err := checkPurity(path, nil)
		if err != nil {
			return err
		}
		for _, m := range msgs {
			t.Error(m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Guard against a walk that silently checks nothing (run from the wrong
	// directory, say): the shared vocabulary and the first policies must be
	// among the directories checked.
	for _, want := range []string{".", "breaker", "retry", "bulkhead", "hedge"} {
		if !dirs[want] {
			t.Errorf("purity walk did not check directory %q (checked %d directories)", want, len(dirs))
		}
	}
	if dirs["wall"] {
		t.Error("purity walk checked package wall, which may use the clock")
	}
}

// TestCheckPurityCatchesViolations runs the checker on small in-memory
// sources, so that a checker that has stopped seeing anything fails too.
func TestCheckPurityCatchesViolations(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // substrings of the messages, in order; nil: clean
	}{
		{"clean explicit time", `package p
import "time"
func f(now time.Duration) time.Duration { return now + time.Second }`, nil},
		{"rand value is fine", `package p
import "math/rand/v2"
func f(rand *rand.Rand) float64 { return rand.Float64() }
func g(r *rand.Rand) int { return r.IntN(3) }
func h() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }`, nil},
		{"policies vocabulary", `package p
import (
	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/retry"
)
var _ policies.Outcome
var _ retry.Call`, nil},
		{"time.Now", `package p
import "time"
func f() time.Duration { return time.Duration(time.Now().UnixNano()) }`, []string{"time.Now"}},
		{"time.Now as a value", `package p
import "time"
var clock = time.Now`, []string{"time.Now"}},
		{"aliased time", `package p
import t "time"
func f() { t.Sleep(t.Second) }`, []string{"time.Sleep"}},
		{"timers and tickers", `package p
import "time"
func f() {
	<-time.After(1)
	time.AfterFunc(1, func() {})
	time.NewTimer(1)
	time.NewTicker(1)
	time.Tick(1)
	_ = time.Since(time.Time{})
	_ = time.Until(time.Time{})
}`, []string{"time.After", "time.AfterFunc", "time.NewTimer", "time.NewTicker", "time.Tick", "time.Since", "time.Until"}},
		{"global rand v2", `package p
import "math/rand/v2"
func f() int { return rand.IntN(3) }`, []string{"rand.IntN"}},
		{"global rand v1 aliased", `package p
import mr "math/rand"
func f() { mr.Seed(1); _ = mr.Intn(3) }`, []string{"rand.Seed", "rand.Intn"}},
		{"go statement", `package p
func f() { go func() {}() }`, []string{"go statement"}},
		{"dot import", `package p
import . "time"
var _ = Second`, []string{"dot-imports time"}},
		{"engine import", `package p
import "github.com/ressim/ressim/sim/engine"
var _ engine.Time`, []string{"sim/engine"}},
		{"topology and metrics imports", `package p
import (
	_ "github.com/ressim/ressim/sim/topology"
	_ "github.com/ressim/ressim/sim/metrics"
)`, []string{"sim/topology", "sim/metrics"}},
		{"wall import", `package p
import _ "github.com/ressim/ressim/sim/policies/wall"`, []string{"wall-clock adapter"}},
		{"third-party import", `package p
import _ "golang.org/x/time/rate"`, []string{"golang.org/x/time/rate"}},
		{"look-alike module path", `package p
import _ "github.com/ressim/ressim/sim/policiesx"`, []string{"policiesx"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := checkPurity("x.go", tt.src)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d violations %q, want %d matching %q", len(got), got, len(tt.want), tt.want)
			}
			for i, w := range tt.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("violation %d = %q, want it to mention %q", i, got[i], w)
				}
			}
		})
	}
}

package experiment

import (
	"errors"
	"fmt"
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

// hostileBase is a valid experiment the generated hostile files extend.
const hostileBase = `schema = 1
[experiment]
name = "h"
duration = "60s"
[[service]]
name = "api"
workers = 4
service_time = { dist = "exponential", mean = "10ms" }
[[client]]
name = "users"
target = "api"
rate = 100
`

// TestTooManyVariantsAtTheFirstExtra: on main "at most 100 variants" was
// reported at 1:1; it belongs at the 101st block.
func TestTooManyVariantsAtTheFirstExtra(t *testing.T) {
	var b strings.Builder
	b.WriteString(hostileBase)
	for i := range MaxVariants + 1 {
		fmt.Fprintf(&b, "[[variant]]\nname = \"v%d\"\nset = { \"client.users.rate\" = %d }\n", i, 100+i)
	}
	_, err := Parse("many.toml", []byte(b.String()))
	line := strings.Count(hostileBase, "\n") + 3*MaxVariants + 1
	want := fmt.Sprintf("many.toml:%d:1: variant[100]: at most 100 variants, got 101", line)
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
}

// TestSweepCheckBounds: validation builds every cell's model, so the number
// of cells times variants, and that times the document's size, are bounded.
func TestSweepCheckBounds(t *testing.T) {
	vals := func(n int) string {
		var s []string
		for i := range n {
			s = append(s, fmt.Sprint(100+i))
		}
		return "[" + strings.Join(s, ", ") + "]"
	}
	var b strings.Builder
	b.WriteString(hostileBase)
	b.WriteString("[[variant]]\nname = \"v\"\nset = { \"client.users.rate\" = 50 }\n")
	fmt.Fprintf(&b, "[sweep]\nmetric = \"goodput\"\nvariants = [\"base\", \"v\"]\nx = { path = \"client.users.rate\", values = %s }\ny = { path = \"service.api.workers\", values = %s }\n", vals(100), vals(100))
	_, err := Parse("big.toml", []byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), "big.toml:16:1: sweep: 10000 cells x 2 variants = 20000 combinations, more than 10000") {
		t.Errorf("err = %v", err)
	}
	// A 50 x 50 grid of a file of 12,000 values (2000 services of 6):
	// 2500 x 12,000 copies > 2e7.
	b.Reset()
	b.WriteString(hostileBase)
	for i := range 2000 {
		fmt.Fprintf(&b, "[[service]]\nname = \"s%d\"\nworkers = 1\nservice_time = { dist = \"constant\", mean = \"1ms\" }\n", i)
	}
	fmt.Fprintf(&b, "[sweep]\nmetric = \"goodput\"\nx = { path = \"client.users.rate\", values = %s }\ny = { path = \"service.api.workers\", values = %s }\n", vals(50), vals(50))
	_, err = Parse("wide.toml", []byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), "wide.toml:8013:1: sweep: checking 2500 combinations of a document of") {
		t.Errorf("err = %v", err)
	}
}

// TestErrorsCapped: a file of 1000 unknown keys reports the first
// MaxErrors and counts the rest, rather than print megabytes.
func TestErrorsCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString(hostileBase)
	for i := range 1000 {
		fmt.Fprintf(&b, "k%d = 1\n", i)
	}
	_, err := Parse("many.toml", []byte(b.String()))
	var l ErrorList
	if !errors.As(err, &l) || len(l) != MaxErrors+1 {
		t.Fatalf("%d errors: %v", len(l), err)
	}
	if got := l[MaxErrors].Error(); got != "many.toml:112:1: and 900 more problems (only the first 100 are shown)" {
		t.Errorf("last line %q", got)
	}
}

package importer

import (
	"fmt"
	"strings"
	"testing"
)

// TestFieldsResolveAnchors: a value written through an alias and the
// keys of a merge (<<) are read as YAML loaders read them (issue 24:
// aliases silently dropped settings); the mapping's own keys win over
// merged ones, the first merged mapping over later ones.
func TestFieldsResolveAnchors(t *testing.T) {
	src := `
base: &base {a: 1, b: 2}
other: &other {b: 20, c: 30}
n: &n 7
m:
  <<: [*base, *other]
  b: 200
  d: *n
`
	root, err := parseDoc("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var m []field
	for _, f := range fields(root) {
		if f.key == "m" {
			m = fields(f.value)
		}
	}
	var got []string
	for _, f := range m {
		got = append(got, f.key+"="+f.value.Value)
	}
	if want := "a=1 b=200 c=30 d=7"; sortedJoin(got) != want {
		t.Errorf("fields = %v, want %s", got, want)
	}
}

// TestMergeBomb: the same anchors merged 100 times at each of 7 levels
// cost their size, not the product of the widths (10^14 merges without
// the seen set: the test would not end).
func TestMergeBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("l0: &l0 {k: 1}\n")
	for i := 1; i <= 7; i++ { // top + 7 levels: within maxMergeDepth
		refs := strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d, ", i-1), 100), ", ")
		fmt.Fprintf(&b, "l%d: &l%d {<<: [%s]}\n", i, i, refs)
	}
	b.WriteString("top: {<<: *l7}\n")
	root, err := parseDoc("bomb.yaml", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	var top []field
	for _, f := range fields(root) {
		if f.key == "top" {
			top = fields(f.value)
		}
	}
	if len(top) != 1 || top[0].key != "k" {
		t.Fatalf("top = %v, want k", top)
	}
}

func sortedJoin(xs []string) string {
	out := append([]string(nil), xs...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return strings.Join(out, " ")
}

// TestR4JAnchors: an application.yml that shares settings through an
// anchor imports them for every instance that uses it.
func TestR4JAnchors(t *testing.T) {
	src := "resilience4j.retry:\n  instances:\n    backendA: &r {maxAttempts: 4, waitDuration: 100ms}\n    backendB: *r\n" +
		"    backendC:\n      <<: *r\n      maxAttempts: 2\n"
	res, err := Import("resilience4j", []Source{{Name: "application.yml", Data: []byte(src)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`call = "backendB"`, `call = "backendC"`} {
		i := strings.Index(res.TOML, want)
		if i < 0 {
			t.Fatalf("no %s:\n%s", want, res.TOML)
		}
		step := res.TOML[i:]
		if j := strings.Index(step[1:], "[["); j >= 0 {
			step = step[:j+1]
		}
		attempts := "attempts = 4"
		if strings.Contains(want, "backendC") {
			attempts = "attempts = 2"
		}
		if !strings.Contains(step, attempts) {
			t.Errorf("%s: want %s:\n%s", want, attempts, step)
		}
	}
}

// TestDuplicateKeysRefused: a mapping that sets one key twice is refused
// with both lines (issue 24: the last one was kept silently), in YAML and
// in JSON, whatever the kind.
func TestDuplicateKeysRefused(t *testing.T) {
	for kind, src := range map[string]string{
		"resilience4j": "resilience4j.retry:\n  instances:\n    a:\n      maxAttempts: 3\n      maxAttempts: 5\n",
		"istio":        "apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata: {name: r}\nspec:\n  host: a\n  host: b\n",
		"grpc":         `{"methodConfig": [{"name": [{"service": "a"}], "timeout": "1s",` + "\n" + `"timeout": "2s"}]}`,
	} {
		_, err := Import(kind, []Source{{Name: "f", Data: []byte(src)}})
		if err == nil || !strings.Contains(err.Error(), "set again (first at line") {
			t.Errorf("%s: %v", kind, err)
		}
	}
}

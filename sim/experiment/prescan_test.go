package experiment

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// bombs are one-line files whose parsing cost grows with the square of
// their nesting depth: on main, 40-100 KB of them exhausted memory in
// ressim validate. Each must be refused by the pre-scan, quickly, at the
// character that goes one level too deep.
func bombs(n int) map[string]string {
	return map[string]string{
		"dotted key":    strings.Repeat("a.", n) + "a = 1\n",
		"table header":  "[" + strings.Repeat("a.", n) + "a]\n",
		"array header":  "[[" + strings.Repeat("a.", n) + "a]]\n",
		"arrays":        "x = " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n",
		"inline tables": "x = " + strings.Repeat("{a=", n) + "1" + strings.Repeat("}", n) + "\n",
		"mixed":         "[" + strings.Repeat("a.", 10) + "a]\n" + strings.Repeat("b.", 10) + "b = " + strings.Repeat("[{c.c=", n) + "\n",
		"after header":  "[a] x = " + strings.Repeat("[", n) + "\n",
		"unclosed":      "x = [\n" + strings.Repeat("[", n) + "\n",
	}
}

func TestPrescanRefusesDepthBombs(t *testing.T) {
	for name, src := range bombs(50000) { // 100-250 KB each
		t.Run(name, func(t *testing.T) {
			_, err := Parse("bomb.toml", []byte(src))
			if err == nil || !errors.Is(err, ErrInvalid) {
				t.Fatalf("err = %v, want an invalid-file error", err)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "bomb.toml:1:") && !strings.HasPrefix(msg, "bomb.toml:2:") || !strings.Contains(msg, "nesting deeper than 32 levels") || strings.Contains(msg, "\n") {
				t.Errorf("err = %v", msg)
			}
		})
	}
}

// TestPrescanDepthBoundary accepts exactly MaxDepth levels and refuses one
// more, for each kind of nesting, with the column of the offending
// character.
func TestPrescanDepthBoundary(t *testing.T) {
	for _, tt := range []struct {
		name     string
		ok, deep string
		col      int
	}{
		{"dotted key", strings.Repeat("a.", 32) + "a = 1", strings.Repeat("a.", 33) + "a = 1", 66},
		{"header", "[" + strings.Repeat("a.", 31) + "a]", "[" + strings.Repeat("a.", 32) + "a]", 65},
		{"arrays", "x = " + strings.Repeat("[", 32) + strings.Repeat("]", 32), "x = " + strings.Repeat("[", 33) + strings.Repeat("]", 33), 37},
		{"inline", "x = " + strings.Repeat("{a=", 31) + "{}" + strings.Repeat("}", 31), "x = " + strings.Repeat("{a=", 32) + "{}" + strings.Repeat("}", 32), 101},
		{"header and key", "[" + strings.Repeat("a.", 15) + "a]\n" + strings.Repeat("b.", 16) + "b = 1", "[" + strings.Repeat("a.", 15) + "a]\n" + strings.Repeat("b.", 17) + "b = 1", 34},
	} {
		if err := prescan("f", tt.ok); err != nil {
			t.Errorf("%s: %d levels refused: %v", tt.name, MaxDepth, err)
		}
		if _, err := toml.Decode(tt.ok, new(map[string]any)); err != nil {
			t.Errorf("%s: the accepted form is not TOML: %v", tt.name, err)
		}
		err := prescan("f", tt.deep)
		if err == nil {
			t.Errorf("%s: %d levels accepted", tt.name, MaxDepth+1)
			continue
		}
		if err.Col != tt.col {
			t.Errorf("%s: error at %v, want column %d: %v", tt.name, err.Pos, tt.col, err)
		}
	}
}

func TestPrescanIgnoresStringsAndComments(t *testing.T) {
	deep := strings.Repeat("[{", 100)
	for _, src := range []string{
		`x = "` + deep + `"`,
		`x = '` + deep + `'`,
		"x = \"\"\"\n" + deep + "\n\"\"\"",
		"x = '''" + deep + "'''",
		"# " + deep,
		`x = "\"` + deep + `"`,
		`"` + strings.Repeat("a.", 100) + `" = 1`,
	} {
		if err := prescan("f", src); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
}

func TestPrescanKeyLength(t *testing.T) {
	long := strings.Repeat("k", MaxKeyLength+1)
	for _, src := range []string{long + " = 1", `"` + long + `" = 1`, "[" + long + "]", "x = { " + long + " = 1 }", "a." + long + " = 1"} {
		err := prescan("f", src)
		if err == nil || !strings.Contains(err.Error(), "key longer than 256 bytes") {
			t.Errorf("%.20q...: err = %v", src, err)
		}
	}
	if err := prescan("f", strings.Repeat("k", MaxKeyLength)+" = 1"); err != nil {
		t.Errorf("a %d-byte key: %v", MaxKeyLength, err)
	}
}

// decodedDepth is the nesting depth of a decoded TOML value: each table
// and array below the root counts one level.
func decodedDepth(v any) int {
	d := 0
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			d = max(d, 1+decodedDepth(e))
		}
	case []map[string]any:
		for _, e := range x {
			d = max(d, 1+decodedDepth(e))
		}
	case []any:
		for _, e := range x {
			d = max(d, 1+decodedDepth(e))
		}
	}
	return d
}

func maxKeyLen(v any) int {
	n := 0
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			n = max(n, len(k)+2, maxKeyLen(e)) // +2: the key may be quoted
		}
	case []map[string]any:
		for _, e := range x {
			n = max(n, maxKeyLen(e))
		}
	case []any:
		for _, e := range x {
			n = max(n, maxKeyLen(e))
		}
	}
	return n
}

// FuzzPrescan: the pre-scan never panics, and it accepts every document
// the TOML library accepts whose decoded depth and keys are within the
// limits.
func FuzzPrescan(f *testing.F) {
	f.Add(good)
	f.Add(withVariants)
	f.Add("[[a]]\n[[a.b]]\n[a.b.c]\nx.y = {z = [1, {w = 2}]}\n")
	f.Add(`s = """\"""" # [[[` + "\n" + `t = '''x''' ` + "\n" + `"q.k" = {'a.b' = [[]]}`)
	f.Add(strings.Repeat("a.", 32) + "a = 1")
	for _, b := range bombs(40) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, src string) {
		err := prescan("fuzz.toml", src)
		if err != nil {
			if err.Line < 1 || err.Col < 1 {
				t.Fatalf("error at %v", err.Pos)
			}
			// Keys are measured raw; an escape such as \U0001F600 is 10
			// bytes for 4 decoded.
			var doc map[string]any
			if _, derr := toml.Decode(src, &doc); derr == nil && decodedDepth(doc) <= MaxDepth && 10*maxKeyLen(doc) <= MaxKeyLength {
				t.Fatalf("pre-scan refuses a valid document of depth %d: %v", decodedDepth(doc), err)
			}
		}
	})
}

// TestPositionsStopAtDepth: the position scanner, which builds a path
// string per key, stops at the depth limit rather than spend time and
// memory quadratic in the depth (it runs only after prescan, but must be
// safe on its own).
func TestPositionsStopAtDepth(t *testing.T) {
	for name, src := range bombs(50000) {
		p := scanPositions(src)
		for k := range p {
			if n := strings.Count(k, "."); n > 2*MaxDepth+2 {
				t.Errorf("%s: recorded a path of %d parts", name, n+1)
				break
			}
		}
	}
}

// TestPrescanKeyCount: 1 MiB of deep dotted keys is within the depth
// limit but cost the TOML parser 3 s of CPU and 400-700 MB (measured at
// depth 16 and 31); the key budget refuses it at the first key too many.
func TestPrescanKeyCount(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < MaxFileSize-100; i++ {
		fmt.Fprintf(&b, "k%d.%s = 1\n", i, strings.Repeat("a.", 14)+"a")
	}
	err := prescan("wide.toml", b.String())
	// 16 parts a line: key 100,001 is the first of line 6251.
	if err == nil || err.Error() != "wide.toml:6251:1: more than 100000 keys (each part of a dotted key or a table header counts)" {
		t.Errorf("err = %v", err)
	}
	b.Reset()
	for i := range MaxKeys {
		fmt.Fprintf(&b, "k%d = 1\n", i)
	}
	if err := prescan("flat.toml", b.String()); err != nil {
		t.Errorf("%d keys: %v", MaxKeys, err)
	}
}

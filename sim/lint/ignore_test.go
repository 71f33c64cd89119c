package lint

import (
	"testing"
	"unicode/utf8"
)

// FuzzScanIgnores: the comment scanner never panics, and every comment it
// returns has at least one rule and a position on a real line.
func FuzzScanIgnores(f *testing.F) {
	f.Add("# ressim:lint-ignore RS001 because x\nkey = 1\n")
	f.Add("a = 1 # ressim:lint-ignore RS001, RS002\n")
	f.Add("#ressim:lint-ignore RS0")
	f.Fuzz(func(t *testing.T, src string) {
		if !utf8.ValidString(src) {
			return
		}
		for line, ig := range scanIgnores([]byte(src)) {
			if len(ig.rules) == 0 || ig.line != line || ig.col < 1 {
				t.Fatalf("bad comment %+v at line %d", ig, line)
			}
		}
	})
}

// TestCovers: a reasoned comment covers its rules on its own line and
// the next, nothing else.
func TestCovers(t *testing.T) {
	igs := scanIgnores([]byte("# ressim:lint-ignore RS001, RS002 because reasons\nx = 1\ny = 2\n"))
	cases := []struct {
		rule string
		line int
		want bool
	}{
		{"RS001", 1, true}, {"RS002", 2, true}, {"RS001", 3, false}, {"RS003", 2, false},
	}
	for _, c := range cases {
		if _, got := covers(igs, c.rule, c.line); got != c.want {
			t.Errorf("covers(%s, line %d) = %v, want %v", c.rule, c.line, got, c.want)
		}
	}
}

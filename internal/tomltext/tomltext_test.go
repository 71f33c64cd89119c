package tomltext

import (
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// TestTOMLString: the quoting of every string value round-trips through
// the TOML parser.
func TestTOMLString(t *testing.T) {
	for _, s := range []string{"", "plain", `q"b\s`, "\x00\x01\b\t\n\f\r\x1b\x7f", "\u0085\u009b\u200b\u2028\u202e\ufeff", "日本\U0001F600", "\U000E0001"} {
		var v struct{ S string }
		if _, err := toml.Decode("S = "+String(s), &v); err != nil || v.S != s {
			t.Errorf("String(%q) = %s decodes to %q, %v", s, String(s), v.S, err)
		}
	}
	if got := String("a\xffb"); got != `"a`+"\uFFFD"+`b"` {
		t.Errorf("String of a non-UTF-8 byte = %s, want U+FFFD", got)
	}
	if got := Key("breaker.window_size"); got != "breaker.window_size" {
		t.Errorf("Key changed a bare key: %s", got)
	}
	if got := Key("a.b c.\n"); got != `a."b c"."\n"` {
		t.Errorf("Key(%q) = %s", "a.b c.\n", got)
	}
}

// TestEditorApply: a setting replaces the table's line of its key group
// (left as a "# replaced by" comment), a multi-line value is commented out
// whole, linked groups replace each other, and other lines are kept.
func TestEditorApply(t *testing.T) {
	src := `[[service]]
name = "a"
workers = 10 # PLACEHOLDER
retry = { attempts = 3,
  backoff = "10ms" }
# a comment the user wrote

[[service]]
name = "b"
workers = 5`
	ed := NewEditor(src, "fit")
	ed.Linked = [][]string{{"retry", "hedge"}}
	ed.Apply(2, []Line{{Key: "workers", Value: "40", Comment: "# from busy"}, {Key: "hedge.delay", Value: `"5ms"`}})
	want := `[[service]]
name = "a"
# replaced by fit: workers = 10 # PLACEHOLDER
# replaced by fit: retry = { attempts = 3,
  # replaced by fit: backoff = "10ms" }
workers = 40 # from busy
hedge.delay = "5ms"
# a comment the user wrote

[[service]]
name = "b"
workers = 5`
	if got := ed.String(); got != want {
		t.Errorf("edited:\n%s\nwant:\n%s", got, want)
	}
	if _, err := toml.Decode(ed.String(), new(map[string]any)); err != nil {
		t.Errorf("edited text does not parse: %v", err)
	}
	ed = NewEditor("a = 1", "fit")
	ed.Apply(0, []Line{{Key: "a", Value: "2"}})
	ed.Apply(5, []Line{{Key: "a", Value: "2"}})
	if got := ed.String(); !strings.HasPrefix(got, "a = 1") {
		t.Errorf("out-of-range lines edited: %q", got)
	}
}

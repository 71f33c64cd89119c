package termsafe

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestLine: the escape sequences and control characters a hostile name
// could carry come out as visible text, and nothing else changes.
func TestLine(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain name-1.yml", "plain name-1.yml"},
		{"\x1b[2Jcleared", `\x1b[2Jcleared`},                     // ESC [ 2 J: clear the screen
		{"\x1b]0;pwned\a", `\x1b]0;pwned\a`},                     // OSC 0: set the window title, ended by BEL
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},             // SGR: colours
		{"ok\rFAKE", `ok\rFAKE`},                                 // CR: overwrite the line
		{"secret\b\b\b\b\b\bpublic", `secret\b\b\b\b\b\bpublic`}, // backspaces
		{"a\x9b2Jb", `a\x9b2Jb`},                                 // a lone 0x9b byte: 8-bit CSI, not UTF-8
		{"a\u009b2Jb", `a\u009b2Jb`},                             // U+009B, C1 CSI encoded in UTF-8
		{"a\u009d0;t\u009cb", `a\u009d0;t\u009cb`},               // C1 OSC ... ST
		{"line1\nwarning: fake", `line1\nwarning: fake`},         // a forged second line
		{"tab\there\x7f\x00", `tab\there\x7f\x00`},               // TAB, DEL, NUL
		{"evil\u202egnp.exe", `evil\u202egnp.exe`},               // right-to-left override
		{"zero\u200bwidth\u2028sep", `zero\u200bwidth\u2028sep`}, // zero width space, line separator
		{"tag\U000e0041", `tag\U000e0041`},                       // a tag character (Cf)
		{`C:\Users\me\app.yml`, `C:\Users\me\app.yml`},           // backslashes are kept
		{"héllo wörld 日本 ✓", "héllo wörld 日本 ✓"},                 // printable Unicode is kept
	}
	for _, c := range cases {
		if got := Line(c.in); got != c.want {
			t.Errorf("Line(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := Text(c.in); !strings.Contains(c.in, "\n") && got != c.want {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestText keeps newlines but nothing else: a carriage return before a
// newline is still escaped.
func TestText(t *testing.T) {
	in := "first\r\n\x1b[2Ksecond\n"
	if got, want := Text(in), "first\\r\n\\x1b[2Ksecond\n"; got != want {
		t.Errorf("Text(%q) = %q, want %q", in, got, want)
	}
	if got := Line(in); strings.Contains(got, "\n") {
		t.Errorf("Line(%q) = %q has a newline", in, got)
	}
}

// FuzzLine: whatever the input, the output is valid UTF-8 without a
// control or format character (Text: but newlines), and printable ASCII
// is returned unchanged.
func FuzzLine(f *testing.F) {
	for _, s := range []string{"\x1b[2J", "\x1b]0;title\a", "\r", "\b", "\x9b", "\u009b", "plain", "a\nb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, keep := range []bool{false, true} {
			got := clean(s, keep)
			if !utf8.ValidString(got) {
				t.Fatalf("clean(%q, %v) = %q: not UTF-8", s, keep, got)
			}
			for _, r := range got {
				if Escapes(r) && !(r == '\n' && keep) {
					t.Fatalf("clean(%q, %v) = %q keeps %U", s, keep, got, r)
				}
			}
			if plain(s, false) && got != s {
				t.Fatalf("clean(%q) changed printable ASCII to %q", s, got)
			}
		}
	})
}

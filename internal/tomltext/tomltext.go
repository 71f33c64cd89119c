package tomltext

import (
	"strings"

	"github.com/ressim/ressim/internal/termsafe"
)

// String quotes s as a TOML basic string: `"` and `\` are escaped,
// and so is every character that is not printable (controls, C1,
// bidirectional and other format characters, U+2028 and U+2029) as \t,
// \n... or \uXXXX, so that the file also prints safely. A byte that is
// not UTF-8 (only a command-line file name can hold one) becomes U+FFFD:
// TOML has no way to write it.
func String(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case termsafe.Escapes(r): // the other controls, C1, format characters
			b.WriteString(escapeRune(r))
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// escapeRune is TOML's \uXXXX or \UXXXXXXXX for r.
func escapeRune(r rune) string {
	const hex = "0123456789ABCDEF"
	n, p := 4, `\u`
	if r > 0xFFFF {
		n, p = 8, `\U`
	}
	out := []byte(p)
	for shift := 4 * (n - 1); shift >= 0; shift -= 4 {
		out = append(out, hex[(r>>shift)&15])
	}
	return string(out)
}

// Comment is s as the text of a TOML comment: one line, every
// control or format character (a newline above all) written as a
// visible escape (\n, \x1b, \u202e: termsafe.Line), so that a name in a
// comment stays in the comment.
func Comment(s string) string { return termsafe.Line(s) }

// Files lists file names in a comment.
func Files(files []string) string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = Comment(f)
	}
	return strings.Join(out, ", ")
}

// Key writes a dotted key path: each part that is not a bare TOML
// key (letters, digits, '-', '_') is quoted. Keys are ressim's own
// ("breaker.window_size"), so this is the identity for them; it makes a
// key that ever comes from a source a key, never TOML syntax.
func Key(k string) string {
	parts := strings.Split(k, ".")
	for i, p := range parts {
		if !bareKey(p) {
			parts[i] = String(p)
		}
	}
	return strings.Join(parts, ".")
}

func bareKey(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

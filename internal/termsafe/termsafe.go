package termsafe

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Line returns s with every control character, newlines included, and
// every invalid UTF-8 byte replaced by a visible escape: the result is one
// line that cannot control a terminal.
func Line(s string) string { return clean(s, false) }

// Text is Line that keeps newlines ("\n"; a carriage return is still
// escaped): for messages of several lines.
func Text(s string) string { return clean(s, true) }

func clean(s string, keepNewline bool) string {
	if plain(s, keepNewline) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x`)
			b.WriteByte(hex[s[i]>>4])
			b.WriteByte(hex[s[i]&15])
		case r == '\n' && keepNewline:
			b.WriteByte('\n')
		case Escapes(r):
			escape(&b, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

const hex = "0123456789abcdef"

// plain reports whether s is printable ASCII (and newlines if kept): the
// common case, returned as it is.
func plain(s string, keepNewline bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 0x20 || c >= 0x7f) && !(c == '\n' && keepNewline) {
			return false
		}
	}
	return true
}

// Escapes reports whether Line escapes r: whether r may control a
// terminal or hide text. True of C0, DEL, C1, format characters
// (bidirectional overrides, zero-width) and the line and paragraph
// separators; false of every printable character and of space.
func Escapes(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029'
}

// escape writes r as a Go-style escape.
func escape(b *strings.Builder, r rune) {
	switch r {
	case '\a':
		b.WriteString(`\a`)
	case '\b':
		b.WriteString(`\b`)
	case '\f':
		b.WriteString(`\f`)
	case '\n':
		b.WriteString(`\n`)
	case '\r':
		b.WriteString(`\r`)
	case '\t':
		b.WriteString(`\t`)
	case '\v':
		b.WriteString(`\v`)
	default:
		switch {
		case r < 0x80:
			b.WriteString(`\x`)
			writeHex(b, r, 2)
		case r <= 0xffff:
			b.WriteString(`\u`)
			writeHex(b, r, 4)
		default:
			b.WriteString(`\U`)
			writeHex(b, r, 8)
		}
	}
}

func writeHex(b *strings.Builder, r rune, digits int) {
	for shift := 4 * (digits - 1); shift >= 0; shift -= 4 {
		b.WriteByte(hex[(r>>shift)&15])
	}
}

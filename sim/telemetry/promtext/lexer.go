package promtext

import (
	"fmt"
	"strconv"
	"strings"
)

// lexer reads one sample line; pos is a byte offset into line.
type lexer struct {
	file   string
	lineNo int
	line   string
	pos    int
	format format
}

// errAt is a *SyntaxError at byte offset off of the line.
func (l *lexer) errAt(off int, format string, args ...any) error {
	return &SyntaxError{File: l.file, Line: l.lineNo, Col: off + 1, Msg: fmt.Sprintf(format, args...)}
}

func (l *lexer) skipBlanks() {
	for l.pos < len(l.line) && (l.line[l.pos] == ' ' || l.line[l.pos] == '\t') {
		l.pos++
	}
}

func (l *lexer) peek() byte {
	if l.pos < len(l.line) {
		return l.line[l.pos]
	}
	return 0
}

// token reads up to the next blank.
func (l *lexer) token() string {
	start := l.pos
	for l.pos < len(l.line) && l.line[l.pos] != ' ' && l.line[l.pos] != '\t' {
		l.pos++
	}
	return l.line[start:l.pos]
}

// found quotes what is at the current position, for error messages.
func (l *lexer) found() string {
	if l.pos >= len(l.line) {
		return "end of line"
	}
	r := l.line[l.pos:]
	if len(r) > 20 {
		r = r[:20] + "..."
	}
	return strconv.Quote(r)
}

// ident reads a metric name ([a-zA-Z_:][a-zA-Z0-9_:]*) or, with
// metric false, a label name (no colons).
func (l *lexer) ident(metric bool) string {
	start := l.pos
	for l.pos < len(l.line) {
		c := l.line[l.pos]
		ok := c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' ||
			(metric && c == ':') || (l.pos > start && c >= '0' && c <= '9')
		if !ok {
			break
		}
		l.pos++
	}
	return l.line[start:l.pos]
}

// quoted reads a double-quoted string. The tsdb dump quotes as Go does;
// the text formats allow only the escapes \\, \" and \n.
func (l *lexer) quoted() (string, error) {
	start := l.pos
	l.pos++ // opening quote
	var b strings.Builder
	plain := true
	for l.pos < len(l.line) {
		c := l.line[l.pos]
		switch c {
		case '"':
			l.pos++
			raw := l.line[start:l.pos]
			if l.format == formatDump {
				s, err := strconv.Unquote(raw)
				if err != nil {
					return "", l.errAt(start, "invalid quoted string %s", raw)
				}
				return s, nil
			}
			if plain {
				return raw[1 : len(raw)-1], nil
			}
			return b.String(), nil
		case '\\':
			if l.pos+1 >= len(l.line) {
				return "", l.errAt(l.pos, "unterminated quoted string")
			}
			if plain {
				plain = false
				b.WriteString(l.line[start+1 : l.pos])
			}
			e := l.line[l.pos+1]
			switch e {
			case '\\', '"':
				b.WriteByte(e)
			case 'n':
				b.WriteByte('\n')
			default:
				if l.format != formatDump {
					return "", l.errAt(l.pos, "invalid escape \\%c (only \\\\, \\\" and \\n)", e)
				}
			}
			l.pos += 2
		default:
			if !plain {
				b.WriteByte(c)
			}
			l.pos++
		}
	}
	return "", l.errAt(start, "unterminated quoted string")
}

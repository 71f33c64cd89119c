package promql

import (
	"strings"
)

// tokKind is a lexical token's kind.
type tokKind int

const (
	tokEOF tokKind = iota
	tokNumber
	tokString
	tokIdent
	tokDuration // inside [...]
	tokOp       // + - * / % ^ == != > < >= <= =~ !~ =
	tokLParen
	tokRParen
	tokLBrace
	tokRBrace
	tokLBracket
	tokRBracket
	tokComma
	tokColon
	tokAt
	tokError
)

// token is one lexical token at byte offset pos of the expression.
type token struct {
	kind tokKind
	text string
	pos  int
}

// lex splits the expression into tokens; a tokError token ends the list
// with its message as text.
func lex(s string) []token {
	var out []token
	inBracket := false
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
			continue
		case c == '#': // comment to the end of the line
			for i < len(s) && s[i] != '\n' {
				i++
			}
			continue
		}
		start := i
		emit := func(k tokKind, n int) {
			out = append(out, token{k, s[start : start+n], start})
			i = start + n
		}
		switch {
		case inBracket && c >= '0' && c <= '9':
			n := 0
			for start+n < len(s) && (isAlnum(s[start+n])) {
				n++
			}
			emit(tokDuration, n)
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			n := scanNumber(s[start:])
			emit(tokNumber, n)
		case c == '"' || c == '\'' || c == '`':
			n := scanString(s[start:])
			if n < 0 {
				out = append(out, token{tokError, "unterminated quoted string", start})
				return out
			}
			emit(tokString, n)
		case c == '_' || c == ':' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			n := 0
			for start+n < len(s) && (isAlnum(s[start+n]) || s[start+n] == '_' || s[start+n] == ':') {
				n++
			}
			emit(tokIdent, n)
		case c == '(':
			emit(tokLParen, 1)
		case c == ')':
			emit(tokRParen, 1)
		case c == '{':
			emit(tokLBrace, 1)
		case c == '}':
			emit(tokRBrace, 1)
		case c == '[':
			inBracket = true
			emit(tokLBracket, 1)
		case c == ']':
			inBracket = false
			emit(tokRBracket, 1)
		case c == ',':
			emit(tokComma, 1)
		case c == ':':
			emit(tokColon, 1)
		case c == '@':
			emit(tokAt, 1)
		default:
			for _, op := range []string{"==", "!=", ">=", "<=", "=~", "!~", "+", "-", "*", "/", "%", "^", ">", "<", "="} {
				if strings.HasPrefix(s[start:], op) {
					emit(tokOp, len(op))
					break
				}
			}
			if i == start {
				out = append(out, token{tokError, "unexpected character " + quoteRune(s[start:]), start})
				return out
			}
		}
	}
	return append(out, token{tokEOF, "", len(s)})
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func quoteRune(s string) string {
	for _, r := range s {
		return "'" + string(r) + "'"
	}
	return "''"
}

// scanNumber returns the length of the number at the start of s: decimal
// with optional fraction and exponent, or hexadecimal 0x...
func scanNumber(s string) int {
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		n := 2
		for n < len(s) && strings.IndexByte("0123456789abcdefABCDEF", s[n]) >= 0 {
			n++
		}
		return n
	}
	n := 0
	for n < len(s) && (s[n] >= '0' && s[n] <= '9' || s[n] == '.') {
		n++
	}
	if n < len(s) && (s[n] == 'e' || s[n] == 'E') {
		m := n + 1
		if m < len(s) && (s[m] == '+' || s[m] == '-') {
			m++
		}
		if m < len(s) && s[m] >= '0' && s[m] <= '9' {
			for m < len(s) && s[m] >= '0' && s[m] <= '9' {
				m++
			}
			n = m
		}
	}
	// A letter straight after the number (5m outside brackets) is part
	// of the token, so that the parser reports it whole.
	for n < len(s) && isAlnum(s[n]) {
		n++
	}
	return n
}

// scanString returns the length of the quoted string at the start of s,
// or -1 if it does not end.
func scanString(s string) int {
	q := s[0]
	for i := 1; i < len(s); i++ {
		switch {
		case s[i] == '\\' && q != '`':
			i++
		case s[i] == q:
			return i + 1
		case s[i] == '\n' && q != '`':
			return -1
		}
	}
	return -1
}

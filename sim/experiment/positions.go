package experiment

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Pos is a position in an experiment file: 1-based line and column, the
// column counted in characters.
type Pos struct {
	Line, Col int
}

// positions maps every key path in a TOML document to where the key is
// written. Paths join keys with dots and index arrays from 0:
// "service.1.service_time.mean" is the mean of the second [[service]]'s
// service_time. A table header's own path maps to the header.
//
// BurntSushi/toml validates the syntax but does not expose key positions
// (and reports the last occurrence of a key repeated in an array of
// tables), so this scanner, run only on documents the parser accepted,
// recovers them. It never fails: on anything it does not follow it stops,
// and lookups fall back to the nearest known ancestor. It also stops at a
// key of more than MaxDepth parts or a value nested deeper than MaxDepth
// (which prescan refuses before), so its cost stays linear in the input.
type positions map[string]Pos

type scanner struct {
	src       string
	i         int
	line, col int
	out       positions
	arrays    map[string]int // array-of-tables path -> elements so far
	table     string         // resolved path of the current table header ("" at the root)
	depth     int            // arrays and inline tables open
}

func scanPositions(src string) positions {
	s := &scanner{src: src, line: 1, col: 1, out: positions{}, arrays: map[string]int{}}
	s.document()
	return s.out
}

// lookup returns the position of path, or of its nearest recorded
// ancestor, or line 1 column 1.
func (p positions) lookup(path string) Pos {
	for {
		if pos, ok := p[path]; ok {
			return pos
		}
		i := strings.LastIndexByte(path, '.')
		if i < 0 {
			return Pos{1, 1}
		}
		path = path[:i]
	}
}

func (s *scanner) eof() bool { return s.i >= len(s.src) }

func (s *scanner) peek() byte {
	if s.eof() {
		return 0
	}
	return s.src[s.i]
}

func (s *scanner) has(prefix string) bool { return strings.HasPrefix(s.src[s.i:], prefix) }

func (s *scanner) advance() {
	if s.eof() {
		return
	}
	if s.src[s.i] == '\n' {
		s.line++
		s.col = 1
		s.i++
		return
	}
	_, n := utf8.DecodeRuneInString(s.src[s.i:])
	s.i += n
	s.col++
}

func (s *scanner) pos() Pos { return Pos{s.line, s.col} }

// skipSpace skips blanks, and with newlines also line breaks and comments.
func (s *scanner) skipSpace(newlines bool) {
	for !s.eof() {
		switch c := s.peek(); {
		case c == ' ' || c == '\t' || c == '\r':
			s.advance()
		case c == '#':
			for !s.eof() && s.peek() != '\n' {
				s.advance()
			}
		case c == '\n' && newlines:
			s.advance()
		default:
			return
		}
	}
}

func (s *scanner) document() {
	for {
		s.skipSpace(true)
		if s.eof() {
			return
		}
		start := s.i
		if s.peek() == '[' {
			s.header()
		} else {
			s.keyValue(s.table)
		}
		if s.i == start { // nothing consumed: give up rather than loop
			return
		}
	}
}

func (s *scanner) header() {
	at := s.pos()
	array := s.has("[[")
	s.advance()
	if array {
		s.advance()
	}
	keys := s.key()
	path := ""
	for i, k := range keys {
		path = join(path, k)
		last := i == len(keys)-1
		if n, ok := s.arrays[path]; ok && !(last && array) {
			path = join(path, strconv.Itoa(n-1))
		}
	}
	if array {
		if _, ok := s.out[path]; !ok { // the array itself: its first block
			s.out[path] = at
		}
		n := s.arrays[path]
		s.arrays[path] = n + 1
		path = join(path, strconv.Itoa(n))
	}
	if _, ok := s.out[path]; !ok {
		s.out[path] = at
	}
	s.table = path
	for !s.eof() && s.peek() != '\n' {
		s.advance()
	}
}

// key parses a dotted key and returns its parts.
func (s *scanner) key() []string {
	var parts []string
	for {
		s.skipSpace(false)
		var k string
		switch c := s.peek(); {
		case c == '"' || c == '\'':
			k = s.quotedKey(c)
		default:
			start := s.i
			for !s.eof() && isBare(s.peek()) {
				s.advance()
			}
			k = s.src[start:s.i]
		}
		parts = append(parts, k)
		if len(parts) > MaxDepth {
			s.i = len(s.src) // too deep to follow: stop
			return parts
		}
		s.skipSpace(false)
		if s.peek() != '.' {
			return parts
		}
		s.advance()
	}
}

func isBare(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

func (s *scanner) quotedKey(q byte) string {
	start := s.i
	s.advance()
	for !s.eof() && s.peek() != q && s.peek() != '\n' {
		if q == '"' && s.peek() == '\\' {
			s.advance()
		}
		s.advance()
	}
	s.advance()
	raw := s.src[start:s.i]
	if q == '\'' {
		return strings.Trim(raw, "'")
	}
	if u, err := strconv.Unquote(raw); err == nil {
		return u
	}
	return strings.Trim(raw, `"`)
}

// keyValue parses `key = value` under prefix, recording positions.
func (s *scanner) keyValue(prefix string) {
	at := s.pos()
	keys := s.key()
	path := prefix
	for _, k := range keys {
		path = join(path, k)
		if strings.Count(path, ".") > 2*MaxDepth {
			s.i = len(s.src) // too deep to follow: stop
			return
		}
		if _, ok := s.out[path]; !ok {
			s.out[path] = at
		}
	}
	s.skipSpace(false)
	if s.peek() != '=' {
		s.skipLine()
		return
	}
	s.advance()
	s.skipSpace(false)
	s.value(path)
}

func (s *scanner) skipLine() {
	for !s.eof() && s.peek() != '\n' {
		s.advance()
	}
}

// value skips one value, recording the positions of keys inside inline
// tables and of array elements.
func (s *scanner) value(path string) {
	if c := s.peek(); c == '{' || c == '[' {
		s.depth++
		defer func() { s.depth-- }()
		if s.depth > MaxDepth {
			s.i = len(s.src) // too deep to follow: stop
			return
		}
	}
	switch c := s.peek(); {
	case c == '{':
		s.inlineTable(path)
	case c == '[':
		s.array(path)
	case c == '"' || c == '\'':
		s.str(c)
	default:
		for !s.eof() {
			switch s.peek() {
			case ',', ']', '}', '\n', '#':
				return
			}
			s.advance()
		}
	}
}

// inlineTable scans an inline table's key = value pairs, from its '{'.
func (s *scanner) inlineTable(path string) {
	s.advance()
	for {
		s.skipSpace(true)
		if s.eof() {
			return
		}
		if s.peek() == '}' {
			s.advance()
			return
		}
		if s.peek() == ',' {
			s.advance()
			continue
		}
		start := s.i
		s.keyValue(path)
		if s.i == start {
			s.advance()
		}
	}
}

// array scans an array's elements, from its '[', recording each one's
// position as path.N.
func (s *scanner) array(path string) {
	s.advance()
	for n := 0; ; {
		s.skipSpace(true)
		if s.eof() {
			return
		}
		switch s.peek() {
		case ']':
			s.advance()
			return
		case ',':
			s.advance()
			continue
		}
		el := join(path, strconv.Itoa(n))
		if _, ok := s.out[el]; !ok {
			s.out[el] = s.pos()
		}
		start := s.i
		s.value(el)
		if s.i == start {
			s.advance()
		}
		n++
	}
}

// str skips a basic or literal string, single- or multi-line.
func (s *scanner) str(q byte) {
	triple := strings.Repeat(string(q), 3)
	if s.has(triple) {
		for k := 0; k < 3; k++ {
			s.advance()
		}
		for !s.eof() && !s.has(triple) {
			if q == '"' && s.peek() == '\\' {
				s.advance()
			}
			s.advance()
		}
		for k := 0; k < 3; k++ {
			s.advance()
		}
		for !s.eof() && s.peek() == q { // up to two quotes may end the content
			s.advance()
		}
		return
	}
	s.advance()
	for !s.eof() && s.peek() != q && s.peek() != '\n' {
		if q == '"' && s.peek() == '\\' {
			s.advance()
		}
		s.advance()
	}
	s.advance()
}

func join(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

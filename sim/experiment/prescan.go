package experiment

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxDepth bounds how deeply an experiment file may nest: table headers,
// dotted keys, arrays and inline tables together (32 levels). The deepest
// setting ressim reads is about 7 levels down (a policy of a step of an
// operation of a service); a variant's set adds 2.
const MaxDepth = 32

// MaxKeyLength bounds each key of an experiment file, in bytes (256); a
// quoted key counts its raw text. The longest keys ressim reads are variant
// override paths, well under 200 bytes.
const MaxKeyLength = 256

// MaxKeys bounds the keys of an experiment file (100,000), each part of a
// dotted key or a table header counting once: the TOML parser allocates
// per part (about 1 KB each at depth), so 1 MiB of "k1.a.a.a...=1" lines
// would otherwise take seconds and hundreds of megabytes. The largest
// bundled experiment has a few hundred; a 40,000-point schedule has 80,000.
const MaxKeys = 100_000

// prescan checks the nesting depth and key lengths of src in one linear
// pass, before the TOML parser sees it: the parser's (and the position
// scanner's) cost grows with the square of the depth, so a 100 KB file of
// "[[[[..." or "a.a.a...=1" would otherwise exhaust memory.
//
// It understands just enough TOML to count: strings (basic, literal,
// multi-line, with escapes), comments, table headers, keys (bare, quoted,
// dotted), arrays and inline tables. Anything else is skipped. The depth it
// counts is a lower bound of the decoded document's depth (an array of
// tables counts once, not twice), so it never rejects a document the
// parser accepts within MaxDepth; and it counts every bracket and dot
// outside strings and comments, so no arrangement of invalid syntax hides
// nesting from it. It returns nil or an *Error at the offending character.
func prescan(file, src string) *Error {
	p := &prescanner{file: file, src: src, keyCtx: true}
	return p.run()
}

// frame is an open array or inline table.
type frame struct {
	table bool // an inline table (else an array)
	depth int  // the container's own depth
	outer int  // cur before it opened
}

type prescanner struct {
	file   string
	src    string
	i      int
	stack  []frame
	header int  // depth of the current [table] header
	cur    int  // depth of the container a value opened here would sit in
	keyCtx bool // reading a key (before '=')
	parts  int  // parts of the key being read
	keyLen int  // bytes of the key part being read
	keyAt  int  // offset where the key part began
	keys   int  // key parts so far
}

func (p *prescanner) run() *Error {
	for p.i < len(p.src) {
		c := p.src[p.i]
		var err *Error
		switch {
		case c == '#':
			p.skipComment()
			continue
		case c == '"' || c == '\'':
			if err := p.str(c); err != nil {
				return err
			}
			continue
		case c == '\n':
			p.newline()
		case p.keyCtx:
			err = p.keyChar(c)
		default:
			err = p.valueChar(c)
		}
		if err != nil {
			return err
		}
		p.i++
	}
	return nil
}

func (p *prescanner) skipComment() {
	for p.i < len(p.src) && p.src[p.i] != '\n' {
		p.i++
	}
}

// newline ends a top-level key/value line; inside arrays (and, leniently,
// inline tables) it is just space.
func (p *prescanner) newline() {
	if len(p.stack) == 0 {
		p.keyCtx, p.parts, p.keyLen, p.cur = true, 0, 0, p.header
	}
}

// keyChar reads one character of a key or table header.
func (p *prescanner) keyChar(c byte) *Error {
	switch {
	case c == '[' && len(p.stack) == 0 && p.parts == 0 && p.keyLen == 0:
		return p.tableHeader()
	case c == '.':
		p.parts++
		p.keyLen = 0
		return p.checkDepth(p.base()+p.parts, "dotted key")
	case c == '=':
		p.keyCtx = false
		p.cur = p.base() + p.parts // parts-1 tables below base, counting from 0
		p.parts, p.keyLen = 0, 0
	case c == '}' || c == ']':
		return p.valueChar(c) // "{}" or stray closers
	case c == ',':
		p.parts, p.keyLen = 0, 0
	case c == ' ' || c == '\t' || c == '\r':
	default:
		return p.keyByte()
	}
	return nil
}

// base is the depth of the table keys are being read in.
func (p *prescanner) base() int {
	if n := len(p.stack); n > 0 {
		return p.stack[n-1].depth
	}
	return p.header
}

func (p *prescanner) keyByte() *Error {
	if p.keyLen == 0 {
		p.keyAt = p.i
		if err := p.countKey(); err != nil {
			return err
		}
	}
	p.keyLen++
	if p.keyLen > MaxKeyLength {
		return p.errAt(p.keyAt, fmt.Sprintf("key longer than %d bytes", MaxKeyLength))
	}
	return nil
}

// tableHeader reads "[a.b]" or "[[a.b]]" up to its closing bracket; the
// header's parts become the depth of the keys below it.
func (p *prescanner) tableHeader() *Error {
	p.i++
	if p.i < len(p.src) && p.src[p.i] == '[' {
		p.i++
	}
	parts := 1
	p.keyLen = 0
	for p.i < len(p.src) {
		switch c := p.src[p.i]; {
		case c == ']' || c == '\n':
			// The rest of the line is read as a value would be, so that
			// brackets after a header still count.
			p.header, p.cur, p.keyCtx, p.keyLen = parts, parts, false, 0
			if c == '\n' {
				p.i-- // run steps onto the newline
			}
			return nil
		case c == '"' || c == '\'':
			if err := p.str(c); err != nil {
				return err
			}
			continue
		case c == '.':
			parts++
			p.keyLen = 0
			if err := p.checkDepth(parts, "table header"); err != nil {
				return err
			}
		case c == ' ' || c == '\t':
		default:
			if err := p.keyByte(); err != nil {
				return err
			}
		}
		p.i++
	}
	return nil
}

// valueChar reads one character of a value.
func (p *prescanner) valueChar(c byte) *Error {
	switch c {
	case '[', '{':
		d := p.cur + 1
		if err := p.checkDepth(d, "value"); err != nil {
			return err
		}
		p.stack = append(p.stack, frame{table: c == '{', depth: d, outer: p.cur})
		p.cur = d
		p.keyCtx, p.parts, p.keyLen = c == '{', 0, 0
	case ']', '}':
		if n := len(p.stack); n > 0 {
			p.cur = p.stack[n-1].outer
			p.stack = p.stack[:n-1]
		}
		p.keyCtx = false
	case ',':
		if n := len(p.stack); n > 0 {
			p.cur = p.stack[n-1].depth
			p.keyCtx, p.parts, p.keyLen = p.stack[n-1].table, 0, 0
		}
	}
	return nil
}

// countKey counts a key part starting at p.keyAt.
func (p *prescanner) countKey() *Error {
	p.keys++
	if p.keys > MaxKeys {
		return p.errAt(p.keyAt, fmt.Sprintf("more than %d keys (each part of a dotted key or a table header counts)", MaxKeys))
	}
	return nil
}

func (p *prescanner) checkDepth(d int, what string) *Error {
	if d <= MaxDepth {
		return nil
	}
	return p.errAt(p.i, fmt.Sprintf("nesting deeper than %d levels (at this %s); table headers, dotted keys, arrays and inline tables count together", MaxDepth, what))
}

// str skips a string starting at p.i with quote q, leaving p.i after it.
// In key context a quoted key counts towards the key length.
func (p *prescanner) str(q byte) *Error {
	at := p.i
	triple := strings.Repeat(string(q), 3)
	if strings.HasPrefix(p.src[p.i:], triple) {
		p.i += 3
		for p.i < len(p.src) && !strings.HasPrefix(p.src[p.i:], triple) {
			if q == '"' && p.src[p.i] == '\\' {
				p.i++
			}
			p.i++
		}
		p.i += 3
		for p.i < len(p.src) && p.src[p.i] == q { // up to two quotes end the content
			p.i++
		}
		p.i = min(p.i, len(p.src))
	} else {
		p.i++
		for p.i < len(p.src) && p.src[p.i] != q && p.src[p.i] != '\n' {
			if q == '"' && p.src[p.i] == '\\' {
				p.i++
			}
			p.i++
		}
		if p.i < len(p.src) && p.src[p.i] == q {
			p.i++
		}
		p.i = min(p.i, len(p.src))
	}
	if p.keyCtx {
		if p.keyLen == 0 {
			p.keyAt = at
			if err := p.countKey(); err != nil {
				return err
			}
		}
		p.keyLen += p.i - at
		if p.keyLen > MaxKeyLength {
			return p.errAt(p.keyAt, fmt.Sprintf("key longer than %d bytes", MaxKeyLength))
		}
	}
	return nil
}

// errAt is an error at byte offset off, its line and column computed once.
func (p *prescanner) errAt(off int, msg string) *Error {
	off = min(off, len(p.src))
	line := 1 + strings.Count(p.src[:off], "\n")
	start := strings.LastIndexByte(p.src[:off], '\n') + 1
	col := 1 + utf8.RuneCountInString(p.src[start:off])
	return &Error{File: p.file, Pos: Pos{line, col}, Msg: msg}
}

package promtext

import (
	"bytes"
	"strings"

	"github.com/ressim/ressim/sim/telemetry"
)

// Parse reads data, named name in errors and origins, in whichever of
// the formats of the package comment it is written in.
func Parse(name string, data []byte, opt Options) (telemetry.Set, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return telemetry.Set{}, err
	}
	p := &parser{
		lex:      lexer{file: name, format: detect(data)},
		col:      newCollector(name, opt),
		opt:      opt,
		families: make(map[string]int),
	}
	if err := p.run(data); err != nil {
		return telemetry.Set{}, err
	}
	if p.lex.format == formatOpenMetrics {
		for i := range p.fams {
			if p.fams[i].Type == "" {
				p.fams[i].Type = "unknown" // a # UNIT without a # TYPE
			}
		}
	}
	return p.col.set(p.fams), nil
}

// parser holds the state of one Parse.
type parser struct {
	lex      lexer
	col      *collector
	opt      Options
	families map[string]int // family name → position in fams
	fams     []telemetry.Family
	eof      bool // "# EOF" read
}

func (p *parser) run(data []byte) error {
	for lineNo := 1; len(data) > 0; lineNo++ {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		p.lex.lineNo = lineNo
		p.lex.line = strings.TrimSuffix(string(line), "\r")
		p.lex.pos = 0
		if err := p.line(); err != nil {
			return err
		}
	}
	return nil
}

// line parses the lexer's current line.
func (p *parser) line() error {
	l := &p.lex
	if p.eof {
		if strings.TrimSpace(l.line) == "" {
			return nil
		}
		return l.errAt(0, "text after # EOF")
	}
	l.skipBlanks()
	if l.pos == len(l.line) {
		return nil
	}
	if l.peek() == '#' {
		return p.comment()
	}
	s, err := l.sample()
	if err != nil {
		return err
	}
	if p.dropped(s.name) {
		return nil
	}
	t := p.opt.DefaultTime
	if s.hasT {
		t = s.t
	}
	return p.col.add(s.name, s.labels, telemetry.Point{T: t, V: s.value}, l.lineNo, s.tCol)
}

// dropped reports whether an OpenMetrics sample is the _created time
// of a counter, histogram, summary or gauge histogram.
func (p *parser) dropped(name string) bool {
	if p.lex.format != formatOpenMetrics {
		return false
	}
	base, ok := strings.CutSuffix(name, "_created")
	if !ok {
		return false
	}
	i, ok := p.families[base]
	if !ok {
		return false
	}
	switch p.fams[i].Type {
	case "counter", "histogram", "summary", "gaugehistogram":
		return true
	}
	return false
}

// validType reports whether typ is a family type format declares.
func validType(f format, typ string) bool {
	switch typ {
	case "counter", "gauge", "histogram", "summary":
		return true
	case "untyped":
		return f != formatOpenMetrics
	case "gaugehistogram", "stateset", "info", "unknown":
		return f == formatOpenMetrics
	}
	return false
}

// comment handles a line starting with "#": # TYPE, # UNIT (in
// OpenMetrics) and # EOF; any other comment, # HELP included, is
// skipped.
func (p *parser) comment() error {
	l := &p.lex
	rest := l.line[l.pos+1:]
	if rest == " EOF" && l.format == formatOpenMetrics {
		p.eof = true
		return nil
	}
	kw, ok := strings.CutPrefix(rest, " TYPE ")
	isUnit := false
	if !ok && l.format == formatOpenMetrics {
		kw, isUnit = strings.CutPrefix(rest, " UNIT ")
	}
	if !ok && !isUnit {
		return nil
	}
	off := l.pos + 1 + 6 // column of the family name
	fields := strings.Fields(kw)
	if len(fields) == 0 {
		return l.errAt(off, "missing metric name")
	}
	name := fields[0]
	nameOff := off + strings.Index(kw, name)
	l.pos = nameOff
	if got := l.ident(true); got != name {
		return l.errAt(nameOff, "invalid metric name %q", name)
	}
	if isUnit {
		if len(fields) > 2 {
			return l.errAt(nameOff, "# UNIT takes a metric name and a unit")
		}
		f := p.family(name)
		if len(fields) == 2 {
			f.Unit = fields[1]
		}
		return nil
	}
	if len(fields) != 2 {
		return l.errAt(nameOff, "# TYPE takes a metric name and a type")
	}
	typ := fields[1]
	typOff := off + strings.LastIndex(kw, typ)
	if !validType(l.format, typ) {
		return l.errAt(typOff, "unknown %s metric type %q", l.format, typ)
	}
	f := p.family(name)
	if f.Type != "" && f.Type != typ {
		return l.errAt(typOff, "%s declared %s earlier, now %s", name, f.Type, typ)
	}
	f.Type = typ
	return nil
}

// family returns the family called name, added if new.
func (p *parser) family(name string) *telemetry.Family {
	i, ok := p.families[name]
	if !ok {
		i = len(p.fams)
		p.families[name] = i
		p.fams = append(p.fams, telemetry.Family{Name: name})
	}
	return &p.fams[i]
}

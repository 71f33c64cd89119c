package promtext

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ressim/ressim/sim/telemetry"
)

// sample is one parsed sample line.
type sample struct {
	name   string
	labels []telemetry.Label // sorted by name, without __name__
	value  float64
	t      int64
	hasT   bool
	tCol   int // column of the timestamp, or of the line's start
}

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

// labelAt is a label and the offset of its name, to place errors.
type labelAt struct {
	telemetry.Label
	off int
}

// sample parses the whole line as a sample.
func (l *lexer) sample() (sample, error) {
	var s sample
	var labels []labelAt
	nameOff := l.pos
	if l.peek() != '{' {
		s.name = l.ident(true)
		if s.name == "" {
			return s, l.errAt(l.pos, "expected a metric name, found %s", l.found())
		}
		save := l.pos
		l.skipBlanks()
		if l.peek() != '{' {
			l.pos = save
		}
	}
	if l.peek() == '{' {
		var err error
		if labels, err = l.labelSet(&s.name, &nameOff); err != nil {
			return s, err
		}
	}
	if s.name == "" {
		return s, l.errAt(nameOff, "sample has no metric name (no __name__ label)")
	}
	if err := checkLabels(l, labels, &s); err != nil {
		return s, err
	}
	if l.pos < len(l.line) && l.peek() != ' ' && l.peek() != '\t' {
		return s, l.errAt(l.pos, "expected a blank before the value, found %s", l.found())
	}
	l.skipBlanks()
	valOff := l.pos
	tok := l.token()
	if tok == "" {
		return s, l.errAt(valOff, "missing value")
	}
	v, err := parseFloat(tok)
	if err != nil {
		return s, l.errAt(valOff, "invalid value %q", tok)
	}
	s.value = v
	l.skipBlanks()
	if l.atExemplar() {
		return s, nil
	}
	s.tCol = l.pos + 1
	if tok := l.token(); tok != "" {
		if s.t, err = l.timestamp(tok); err != nil {
			return s, l.errAt(s.tCol-1, "%v", err)
		}
		s.hasT = true
		l.skipBlanks()
		if l.atExemplar() {
			return s, nil
		}
	} else {
		s.tCol = 1
	}
	if l.pos < len(l.line) {
		return s, l.errAt(l.pos, "unexpected text after the sample: %s", l.found())
	}
	return s, nil
}

// atExemplar reports whether the rest of the line is an OpenMetrics
// exemplar, which is ignored.
func (l *lexer) atExemplar() bool {
	return l.format == formatOpenMetrics && l.peek() == '#'
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

// labelSet reads {name="value",...}. A __name__ label, or a quoted
// string standing alone (the quoted-name syntax), names the metric.
func (l *lexer) labelSet(name *string, nameOff *int) ([]labelAt, error) {
	l.pos++ // '{'
	var labels []labelAt
	for {
		l.skipBlanks()
		if l.peek() == '}' {
			l.pos++
			return labels, nil
		}
		off := l.pos
		var key string
		quoted := l.peek() == '"'
		if quoted {
			var err error
			if key, err = l.quoted(); err != nil {
				return nil, err
			}
		} else if key = l.ident(false); key == "" {
			return nil, l.errAt(l.pos, "expected a label name, found %s", l.found())
		}
		l.skipBlanks()
		switch {
		case l.peek() == '=':
			l.pos++
			l.skipBlanks()
			if l.peek() != '"' {
				return nil, l.errAt(l.pos, "expected a quoted label value, found %s", l.found())
			}
			val, err := l.quoted()
			if err != nil {
				return nil, err
			}
			if key == "__name__" {
				if *name != "" {
					return nil, l.errAt(off, "metric name given twice")
				}
				*name, *nameOff = val, off
			} else {
				labels = append(labels, labelAt{telemetry.Label{Name: key, Value: val}, off})
			}
		case quoted && *name == "":
			*name, *nameOff = key, off
		default:
			return nil, l.errAt(l.pos, "expected = after label name %q, found %s", key, l.found())
		}
		l.skipBlanks()
		switch l.peek() {
		case ',':
			l.pos++
		case '}':
		default:
			return nil, l.errAt(l.pos, "expected , or } in the label set, found %s", l.found())
		}
	}
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

// checkLabels sorts the labels into s, refusing a name given twice.
func checkLabels(l *lexer, labels []labelAt, s *sample) error {
	slices.SortStableFunc(labels, func(a, b labelAt) int { return strings.Compare(a.Name, b.Name) })
	for i := 1; i < len(labels); i++ {
		if labels[i].Name == labels[i-1].Name {
			later := max(labels[i].off, labels[i-1].off)
			return l.errAt(later, "label %q given twice", labels[i].Name)
		}
	}
	if len(labels) > 0 {
		s.labels = make([]telemetry.Label, len(labels))
		for i, la := range labels {
			s.labels[i] = la.Label
		}
	}
	return nil
}

// parseFloat parses a sample value as Prometheus does: Go's float
// syntax, with NaN and ±Inf, but no hexadecimal or underscores.
func parseFloat(s string) (float64, error) {
	if strings.ContainsAny(s, "pPxX_") {
		return 0, strconv.ErrSyntax
	}
	return strconv.ParseFloat(s, 64)
}

// timestamp parses a timestamp token into milliseconds: an integer
// count of milliseconds, or in OpenMetrics a (fractional) count of
// seconds.
func (l *lexer) timestamp(tok string) (int64, error) {
	if l.format != formatOpenMetrics {
		t, err := strconv.ParseInt(tok, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("invalid timestamp %q (integer milliseconds)", tok)
		}
		return t, nil
	}
	f, err := parseFloat(tok)
	ms := math.Round(f * 1000)
	if err != nil || math.IsNaN(ms) || ms < math.MinInt64 || ms >= math.MaxInt64 {
		return 0, fmt.Errorf("invalid timestamp %q (seconds)", tok)
	}
	return int64(ms), nil
}

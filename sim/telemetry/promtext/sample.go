package promtext

import (
	"slices"
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

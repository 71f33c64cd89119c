package preset

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/ressim/ressim/sim/telemetry"
)

// matchOp is a label matcher's operator.
type matchOp int

const (
	opEq    matchOp = iota // l="v"
	opNe                   // l!="v"
	opRe                   // l=~"re"
	opNotRe                // l!~"re"
)

// labelMatcher tests one label of a series; a missing label has the
// value "", as in PromQL.
type labelMatcher struct {
	name  string
	op    matchOp
	value string
	re    *regexp.Regexp // anchored, for opRe and opNotRe
}

func (m labelMatcher) matches(s *telemetry.Series) bool {
	v := s.Label(m.name)
	switch m.op {
	case opEq:
		return v == m.value
	case opNe:
		return v != m.value
	case opRe:
		return m.re.MatchString(v)
	default:
		return !m.re.MatchString(v)
	}
}

// selector picks series by sample name and label matchers, as a PromQL
// instant selector does: name{l="v",l=~"re",...}.
type selector struct {
	name     string
	matchers []labelMatcher
}

// String returns the selector in PromQL notation.
func (s selector) String() string {
	if len(s.matchers) == 0 {
		return s.name
	}
	var b strings.Builder
	b.WriteString(s.name)
	b.WriteByte('{')
	for i, m := range s.matchers {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(m.name)
		b.WriteString([...]string{"=", "!=", "=~", "!~"}[m.op])
		b.WriteString(strconv.Quote(m.value))
	}
	b.WriteByte('}')
	return b.String()
}

// matches reports whether s has the selector's name and labels.
func (s selector) matches(ser *telemetry.Series) bool {
	return ser.Name == s.name && s.labelsMatch(ser)
}

// labelsMatch reports whether ser's labels satisfy every matcher,
// whatever its name.
func (s selector) labelsMatch(ser *telemetry.Series) bool {
	for _, m := range s.matchers {
		if !m.matches(ser) {
			return false
		}
	}
	return true
}

// with returns the selector with more matchers, or renamed when name is
// not empty.
func (s selector) with(name string, more ...labelMatcher) selector {
	out := selector{name: s.name, matchers: append(append([]labelMatcher(nil), s.matchers...), more...)}
	if name != "" {
		out.name = name
	}
	return out
}

// maxSelectorBytes bounds a selector's text.
const maxSelectorBytes = 4096

var (
	metricNameRE = regexp.MustCompile(`^[a-zA-Z_:][a-zA-Z0-9_:]*$`)
	labelNameRE  = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)
)

// parseSelector reads name or name{matcher,...} where a matcher is
// label="v", label!="v", label=~"re" or label!~"re", values quoted as Go
// (or PromQL) double-quoted strings; regular expressions are RE2 and
// anchored at both ends.
func parseSelector(text string) (selector, error) {
	if len(text) > maxSelectorBytes {
		return selector{}, fmt.Errorf("selector longer than %d bytes", maxSelectorBytes)
	}
	text = strings.TrimSpace(text)
	name, rest, braces := strings.Cut(text, "{")
	name = strings.TrimSpace(name)
	if !metricNameRE.MatchString(name) {
		return selector{}, fmt.Errorf("selector %q: %q is not a metric name", text, name)
	}
	sel := selector{name: name}
	if !braces {
		return sel, nil
	}
	body, ok := strings.CutSuffix(strings.TrimSpace(rest), "}")
	if !ok {
		return selector{}, fmt.Errorf("selector %q: no closing brace", text)
	}
	for {
		body = strings.TrimLeft(body, " \t")
		if body == "" {
			return sel, nil
		}
		m, tail, err := parseMatcher(body)
		if err != nil {
			return selector{}, fmt.Errorf("selector %q: %w", text, err)
		}
		sel.matchers = append(sel.matchers, m)
		tail = strings.TrimLeft(tail, " \t")
		if tail == "" {
			return sel, nil
		}
		if tail[0] != ',' {
			return selector{}, fmt.Errorf("selector %q: expected , before %q", text, tail)
		}
		body = tail[1:]
	}
}

// parseMatcher reads one matcher from the front of s and returns the rest.
func parseMatcher(s string) (labelMatcher, string, error) {
	i := strings.IndexAny(s, "=!")
	if i < 0 {
		return labelMatcher{}, "", fmt.Errorf("matcher %q has no operator", s)
	}
	m := labelMatcher{name: strings.TrimSpace(s[:i])}
	if !labelNameRE.MatchString(m.name) {
		return labelMatcher{}, "", fmt.Errorf("%q is not a label name", m.name)
	}
	s = s[i:]
	switch {
	case strings.HasPrefix(s, "=~"):
		m.op, s = opRe, s[2:]
	case strings.HasPrefix(s, "!~"):
		m.op, s = opNotRe, s[2:]
	case strings.HasPrefix(s, "!="):
		m.op, s = opNe, s[2:]
	case strings.HasPrefix(s, "="):
		m.op, s = opEq, s[1:]
	default:
		return labelMatcher{}, "", fmt.Errorf("label %s: unknown operator in %q", m.name, s)
	}
	s = strings.TrimLeft(s, " \t")
	q, err := strconv.QuotedPrefix(s)
	if err != nil || q[0] != '"' {
		return labelMatcher{}, "", fmt.Errorf("label %s: value must be a double-quoted string", m.name)
	}
	v, err := strconv.Unquote(q)
	if err != nil {
		return labelMatcher{}, "", fmt.Errorf("label %s: %w", m.name, err)
	}
	m.value = v
	if m.op == opRe || m.op == opNotRe {
		re, err := regexp.Compile("^(?:" + v + ")$")
		if err != nil {
			return labelMatcher{}, "", fmt.Errorf("label %s: bad regular expression: %w", m.name, err)
		}
		m.re = re
	}
	return m, s[len(q):], nil
}

// mustSelector parses a selector written in this package's source; it
// panics on a malformed one, a programming error the tests catch.
func mustSelector(text string) selector {
	s, err := parseSelector(text)
	if err != nil {
		panic("preset: " + err.Error())
	}
	return s
}

package promql

import (
	"fmt"
	"regexp"
)

// Matcher is a label matcher: =, !=, =~ or !~ (regular expressions
// anchored at both ends, as in Prometheus).
type Matcher struct {
	Name, Op, Value string
	re              *regexp.Regexp
}

// maxRegexLen bounds a matcher's regular expression (Go's regexp runs in
// linear time, so only its size needs a bound).
const maxRegexLen = 4096

func newMatcher(name, op, value string) (*Matcher, error) {
	m := &Matcher{Name: name, Op: op, Value: value}
	if op == "=~" || op == "!~" {
		if len(value) > maxRegexLen {
			return nil, fmt.Errorf("regular expression longer than %d bytes", maxRegexLen)
		}
		re, err := regexp.Compile("^(?:" + value + ")$")
		if err != nil {
			return nil, fmt.Errorf("invalid regular expression %q: %v", value, err)
		}
		m.re = re
	}
	return m, nil
}

// Matches says whether the label value v (empty if the label is absent)
// matches.
func (m *Matcher) Matches(v string) bool {
	switch m.Op {
	case "=":
		return v == m.Value
	case "!=":
		return v != m.Value
	case "=~":
		return m.re.MatchString(v)
	default:
		return !m.re.MatchString(v)
	}
}

// matchesLabels says whether every matcher matches ls.
func matchesLabels(ms []*Matcher, ls Labels) bool {
	for _, m := range ms {
		if !m.Matches(ls.Get(m.Name)) {
			return false
		}
	}
	return true
}

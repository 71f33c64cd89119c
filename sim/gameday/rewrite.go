package gameday

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/topology"
)

// WithMoves returns text, the file exp was read from, with its top-level
// [[action]] blocks (the reference answer) removed and the moves appended
// as [[action]] blocks, in the order of their times: at in whole
// milliseconds, the move's label, the move's body. It reads the result
// back and refuses it unless its model is exp's with exactly the moves'
// actions and everything else the same (a file whose actions are not
// plain [[action]] blocks cannot be rewritten safely).
func WithMoves(text []byte, exp *experiment.Experiment, moves []Played) ([]byte, error) {
	if err := check(exp, moves); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString(strings.TrimRight(string(withoutActions(text)), " \t\r\n"))
	b.WriteByte('\n')
	if len(moves) > 0 {
		b.WriteString("\n" + movesComment + "\n")
	}
	for _, p := range sorted(moves) {
		m := exp.GameDay.Moves[p.Move]
		fmt.Fprintf(&b, "\n[[action]]\nat = \"%dms\"\nlabel = %s\n%s", p.AtMS, experiment.TOMLString(m.Label), m.Body)
	}
	out := b.Bytes()
	x, err := experiment.Parse(exp.File, out)
	if err != nil {
		return nil, fmt.Errorf("the file cannot be rewritten safely with the moves: %w", err)
	}
	if !sameBut(exp, x, actions(exp, moves)) {
		return nil, fmt.Errorf("the file cannot be rewritten safely with the moves: read back, it is not the same experiment with the moves as its actions (are its actions written other than as [[action]] blocks?)")
	}
	return out, nil
}

// movesComment heads the moves WithMoves appends; withoutActions removes
// it, so that rewriting a rewritten file gives the same text.
const movesComment = "# The moves played in the game day, as timed actions."

// sameBut reports whether x is exp with acts as its actions: the same
// model otherwise, header, variants (by name), expectations, knobs,
// alerts and game day.
func sameBut(exp, x *experiment.Experiment, acts []topology.ActionConfig) bool {
	m, n := exp.Model, x.Model
	if !reflect.DeepEqual(n.Actions, acts) && !(len(n.Actions) == 0 && len(acts) == 0) {
		return false
	}
	m.Actions, n.Actions = nil, nil
	if !reflect.DeepEqual(m, n) || exp.Name != x.Name || exp.Description != x.Description ||
		exp.Replications != x.Replications || len(exp.Variants) != len(x.Variants) {
		return false
	}
	for i := range exp.Variants {
		if exp.Variants[i].Name != x.Variants[i].Name {
			return false
		}
	}
	return reflect.DeepEqual(exp.GameDay, x.GameDay) && reflect.DeepEqual(exp.Alerts, x.Alerts) &&
		reflect.DeepEqual(exp.Knobs, x.Knobs) && sameExpects(exp, x)
}

// sameExpects reports whether exp and x have the same expectations,
// wherever they are in the file.
func sameExpects(exp, x *experiment.Experiment) bool {
	e1, a1 := unplaced(exp)
	e2, a2 := unplaced(x)
	return reflect.DeepEqual(e1, e2) && reflect.DeepEqual(a1, a2)
}

// unplaced are exp's expectations without their positions in the file,
// which removing the actions moves.
func unplaced(exp *experiment.Experiment) ([]experiment.Expect, []experiment.AlertExpect) {
	e := slices.Clone(exp.Expects)
	for i := range e {
		e[i].Where = ""
	}
	a := slices.Clone(exp.AlertExpects)
	for i := range a {
		a[i].Where = experiment.Pos{}
	}
	return e, a
}

// withoutActions returns text without its top-level [[action]] blocks:
// each from its header line to the next table header that is not part of
// an action ([[action]] or [action.x]). It follows TOML's strings,
// comments and multi-line arrays so that a bracket inside a value is not
// taken for a header; WithMoves checks the result anyway.
func withoutActions(text []byte) []byte {
	lines := strings.SplitAfter(string(text), "\n")
	var out strings.Builder
	var s scanState
	drop := false
	for _, line := range lines {
		if s.atTop() {
			if h, ok := header(line); ok {
				drop = h == "action"
			}
		}
		s.scan(line)
		if !drop && strings.TrimRight(line, "\r\n") != movesComment {
			out.WriteString(line)
		}
	}
	return []byte(out.String())
}

// header returns the first key of the table header line holds, if it
// holds one.
func header(line string) (string, bool) {
	t := strings.TrimLeft(line, " \t")
	if !strings.HasPrefix(t, "[") {
		return "", false
	}
	t = strings.TrimLeft(strings.TrimLeft(t, "["), " \t")
	if q := t[:min(1, len(t))]; q == `"` || q == "'" {
		end := strings.Index(t[1:], q)
		if end < 0 {
			return "", true
		}
		return t[1 : 1+end], true
	}
	i := 0
	for i < len(t) && (isBare(t[i])) {
		i++
	}
	return t[:i], true
}

func isBare(c byte) bool {
	return c == '_' || c == '-' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// scanState follows TOML's lexical state across lines: inside a
// multi-line string, or inside brackets or braces of a value.
type scanState struct {
	multi string // `"""` or `'''` while inside a multi-line string
	depth int    // open [ and { of values
}

// atTop reports whether the next line starts outside any value.
func (s *scanState) atTop() bool { return s.multi == "" && s.depth == 0 }

// scan advances s over one line.
func (s *scanState) scan(line string) {
	i := 0
	if s.multi == "" && s.depth == 0 {
		if _, ok := header(line); ok {
			return // a header's brackets are not a value's
		}
	}
	for i < len(line) {
		if s.multi != "" {
			j := strings.Index(line[i:], s.multi)
			if j < 0 {
				return
			}
			// A backslash before the delimiter escapes it in basic strings.
			if s.multi == `"""` && escaped(line, i+j) {
				i += j + 1
				continue
			}
			i += j + 3
			for k := 0; k < 2 && i < len(line) && line[i] == s.multi[0]; k++ { // up to two more quotes belong to the string
				i++
			}
			s.multi = ""
			continue
		}
		switch c := line[i]; {
		case c == '#':
			return
		case strings.HasPrefix(line[i:], `"""`), strings.HasPrefix(line[i:], `'''`):
			s.multi = line[i : i+3]
			i += 3
		case c == '"' || c == '\'':
			i = stringEnd(line, i)
		case c == '[' || c == '{':
			s.depth++
			i++
		case c == ']' || c == '}':
			if s.depth > 0 {
				s.depth--
			}
			i++
		default:
			i++
		}
	}
}

// escaped reports whether the byte at i of line follows an odd number of
// backslashes.
func escaped(line string, i int) bool {
	n := 0
	for j := i - 1; j >= 0 && line[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

// stringEnd returns the index after the one-line string opening at i.
func stringEnd(line string, i int) int {
	q := line[i]
	for j := i + 1; j < len(line); j++ {
		if line[j] == q && (q == '\'' || !escaped(line, j)) {
			return j + 1
		}
	}
	return len(line)
}

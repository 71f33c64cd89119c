package promql

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Budgets of an expression.
const (
	// MaxExprLen bounds an expression's length in bytes.
	MaxExprLen = 16 << 10
	// MaxDepth bounds the nesting of an expression's operations.
	MaxDepth = 64
)

// docRef is where the refusals point.
const docRef = "; the page evaluates a subset, see docs/observability.md"

// Error is a parse error at a position of the expression.
type Error struct {
	Expr string
	Pos  int // byte offset
	Msg  string
	// Unsupported says the expression is PromQL, outside the subset.
	Unsupported bool
}

func (e *Error) Error() string {
	line, col := 1, 1
	for _, c := range e.Expr[:min(e.Pos, len(e.Expr))] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	at := fmt.Sprintf("column %d", col)
	if strings.Contains(strings.TrimRight(e.Expr, "\n"), "\n") {
		at = fmt.Sprintf("line %d, column %d", line, col)
	}
	s := fmt.Sprintf("promql: %s at %s", e.Msg, at)
	if e.Unsupported {
		s += docRef
	}
	return s
}

// parser is a precedence-climbing parser over the tokens.
type parser struct {
	src   string
	toks  []token
	i     int
	depth int
}

// bailout carries an *Error up the recursion.
type bailout struct{ err *Error }

// Parse parses an expression of the subset.
func Parse(s string) (e Expr, err error) {
	if len(s) > MaxExprLen {
		return nil, &Error{Expr: s, Pos: MaxExprLen, Msg: fmt.Sprintf("expression longer than %d bytes", MaxExprLen)}
	}
	p := &parser{src: s, toks: lex(s)}
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bailout)
			if !ok {
				panic(r)
			}
			e, err = nil, b.err
		}
	}()
	e = p.expr(0)
	if t := p.peek(); t.kind != tokEOF {
		p.fail(t.pos, "unexpected %s", describe(t))
	}
	return e, nil
}

func (p *parser) fail(pos int, format string, args ...any) {
	panic(bailout{&Error{Expr: p.src, Pos: pos, Msg: fmt.Sprintf(format, args...)}})
}

func (p *parser) unsupported(pos int, format string, args ...any) {
	panic(bailout{&Error{Expr: p.src, Pos: pos, Msg: fmt.Sprintf(format, args...), Unsupported: true}})
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind == tokError {
		p.fail(t.pos, "%s", t.text)
	}
	if t.kind != tokEOF {
		p.i++
	}
	return t
}

func (p *parser) expect(k tokKind, what string) token {
	t := p.next()
	if t.kind != k {
		p.fail(t.pos, "unexpected %s, expected %s", describe(t), what)
	}
	return t
}

func describe(t token) string {
	switch t.kind {
	case tokEOF:
		return "end of input"
	case tokError:
		return t.text
	}
	return fmt.Sprintf("%q", t.text)
}

func (p *parser) enter(pos int) {
	if p.depth++; p.depth > MaxDepth {
		p.fail(pos, "expression nested deeper than %d", MaxDepth)
	}
}

// Operator precedence, lowest first, as in Prometheus.
func precedence(t token) int {
	switch {
	case t.kind == tokIdent:
		switch strings.ToLower(t.text) {
		case "or":
			return 1
		case "and", "unless":
			return 2
		}
	case t.kind == tokOp:
		switch t.text {
		case "==", "!=", ">", "<", ">=", "<=":
			return 3
		case "+", "-":
			return 4
		case "*", "/", "%":
			return 5
		case "^":
			return 6
		}
	}
	return 0
}

func isComparison(op string) bool {
	switch op {
	case "==", "!=", ">", "<", ">=", "<=":
		return true
	}
	return false
}

func isSetOp(op string) bool { return op == "and" || op == "or" || op == "unless" }

// expr parses a binary expression whose operators bind at least minPrec.
func (p *parser) expr(minPrec int) Expr {
	p.enter(p.peek().pos)
	defer func() { p.depth-- }()
	lhs := p.unary()
	for {
		t := p.peek()
		prec := precedence(t)
		if prec == 0 || prec < minPrec {
			return lhs
		}
		p.next()
		op := strings.ToLower(t.text)
		b := &Binary{Op: op, LHS: lhs, pos: t.pos}
		if n := p.peek(); n.kind == tokIdent && strings.EqualFold(n.text, "bool") {
			p.next()
			if !isComparison(op) {
				p.fail(n.pos, "bool modifier can only be used on comparison operators")
			}
			b.ReturnBool = true
		}
		var m *Matching
		if n := p.peek(); n.kind == tokIdent && (strings.EqualFold(n.text, "on") || strings.EqualFold(n.text, "ignoring")) {
			p.next()
			m = &Matching{On: strings.EqualFold(n.text, "on"), Labels: p.labelList()}
			if g := p.peek(); g.kind == tokIdent && (strings.EqualFold(g.text, "group_left") || strings.EqualFold(g.text, "group_right")) {
				p.unsupported(g.pos, "unsupported modifier %s (many-to-one matching)", g.text)
			}
		}
		if g := p.peek(); g.kind == tokIdent && (strings.EqualFold(g.text, "group_left") || strings.EqualFold(g.text, "group_right")) {
			p.unsupported(g.pos, "unsupported modifier %s (many-to-one matching)", g.text)
		}
		next := prec + 1
		if op == "^" {
			next = prec // right-associative
		}
		b.RHS = p.expr(next)
		p.check(b, m)
		lhs = b
	}
}

// check type-checks a binary operation as Prometheus' parser does.
func (p *parser) check(b *Binary, m *Matching) {
	lt, rt := b.LHS.Type(), b.RHS.Type()
	for _, x := range []Expr{b.LHS, b.RHS} {
		if x.Type() == MatrixType {
			p.fail(x.Pos(), "binary expression must contain only scalar and instant vector types")
		}
	}
	if isSetOp(b.Op) && (lt != VectorType || rt != VectorType) {
		p.fail(b.pos, "set operator %q not allowed in binary scalar expression", b.Op)
	}
	if isComparison(b.Op) && !b.ReturnBool && lt == ScalarType && rt == ScalarType {
		p.fail(b.pos, "comparisons between scalars must use BOOL modifier")
	}
	if lt == VectorType && rt == VectorType {
		if m == nil {
			m = &Matching{}
		}
		b.Matching = m
	} else if m != nil {
		p.fail(b.pos, "vector matching only allowed between instant vectors")
	}
}

// unary parses a unary minus or plus: it binds tighter than * and looser
// than ^, as in Prometheus (-2^2 is -4).
func (p *parser) unary() Expr {
	t := p.peek()
	if t.kind == tokOp && (t.text == "-" || t.text == "+") {
		p.next()
		p.enter(t.pos)
		defer func() { p.depth-- }()
		e := p.expr(6)
		if e.Type() == MatrixType {
			p.fail(t.pos, "unary expression only allowed on expressions of type scalar or instant vector")
		}
		if n, ok := e.(*NumberLiteral); ok {
			if t.text == "-" {
				n.Val = -n.Val
			}
			n.pos = t.pos
			return n
		}
		if t.text == "+" {
			return e
		}
		return &Unary{Op: "-", Expr: e, pos: t.pos}
	}
	return p.postfix(p.primary())
}

// postfix parses a range [d] after a selector, and refuses offset, @ and
// subqueries.
func (p *parser) postfix(e Expr) Expr {
	for {
		t := p.peek()
		switch {
		case t.kind == tokLBracket:
			p.next()
			d := p.next()
			if d.kind != tokDuration {
				p.fail(d.pos, "unexpected %s in range, expected a duration", describe(d))
			}
			r, err := ParseDuration(d.text)
			if err != nil {
				p.fail(d.pos, "%v", err)
			}
			if c := p.peek(); c.kind != tokRBracket {
				if c.kind == tokColon || c.kind == tokIdent && strings.HasPrefix(c.text, ":") {
					p.unsupported(c.pos, "unsupported subquery")
				}
				p.fail(c.pos, "unexpected %s in range, expected \"]\"", describe(c))
			}
			p.next()
			vs, ok := e.(*VectorSelector)
			if !ok {
				p.unsupported(t.pos, "unsupported subquery (a range is only allowed on a vector selector here)")
			}
			if r <= 0 {
				p.fail(d.pos, "range must be positive")
			}
			e = &MatrixSelector{VS: vs, Range: r, pos: vs.pos}
		case t.kind == tokIdent && strings.EqualFold(t.text, "offset"):
			p.unsupported(t.pos, "unsupported modifier offset")
		case t.kind == tokAt:
			p.unsupported(t.pos, "unsupported modifier @")
		default:
			return e
		}
	}
}

var aggregations = []string{"sum", "max", "min", "avg", "count"}
var unsupportedAggregations = []string{"stddev", "stdvar", "topk", "bottomk", "quantile", "count_values", "group", "limitk", "limit_ratio"}

func (p *parser) primary() Expr {
	t := p.next()
	switch t.kind {
	case tokNumber:
		v, err := parseNumber(t.text)
		if err != nil {
			p.fail(t.pos, "bad number or duration syntax: %q", t.text)
		}
		return &NumberLiteral{Val: v, pos: t.pos}
	case tokString:
		p.unsupported(t.pos, "unsupported string literal")
	case tokLParen:
		e := p.expr(0)
		p.expect(tokRParen, "\")\"")
		return &Paren{Expr: e, pos: t.pos}
	case tokLBrace:
		p.i--
		return p.selector("", t.pos)
	case tokIdent:
		name := t.text
		lower := strings.ToLower(name)
		n := p.peek()
		isGrouping := n.kind == tokIdent && (strings.EqualFold(n.text, "by") || strings.EqualFold(n.text, "without"))
		if slices.Contains(aggregations, lower) && (n.kind == tokLParen || isGrouping) {
			return p.aggregate(lower, t.pos)
		}
		if slices.Contains(unsupportedAggregations, lower) && (n.kind == tokLParen || isGrouping) {
			p.unsupported(t.pos, "unsupported aggregation %s", name)
		}
		if n.kind == tokLParen {
			return p.call(name, t.pos)
		}
		switch lower {
		case "inf", "+inf":
			return &NumberLiteral{Val: math.Inf(1), pos: t.pos}
		case "nan":
			return &NumberLiteral{Val: math.NaN(), pos: t.pos}
		case "by", "without", "on", "ignoring", "bool", "and", "or", "unless", "offset", "group_left", "group_right":
			p.fail(t.pos, "unexpected %s", describe(t))
		}
		return p.selector(name, t.pos)
	}
	p.fail(t.pos, "unexpected %s", describe(t))
	return nil
}

func parseNumber(s string) (float64, error) {
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		n, err := strconv.ParseUint(s[2:], 16, 64)
		return float64(n), err
	}
	return strconv.ParseFloat(s, 64)
}

// selector parses a vector selector: name, {matchers} or both.
func (p *parser) selector(name string, pos int) Expr {
	vs := &VectorSelector{Name: name, pos: pos}
	if name != "" {
		m, _ := newMatcher(MetricName, "=", name)
		vs.Matchers = append(vs.Matchers, m)
	}
	if p.peek().kind == tokLBrace {
		p.next()
		for p.peek().kind != tokRBrace {
			l := p.next()
			if l.kind != tokIdent && l.kind != tokString {
				p.fail(l.pos, "unexpected %s in label matching, expected label name", describe(l))
			}
			if l.kind == tokString {
				p.unsupported(l.pos, "unsupported quoted label name")
			}
			if !validLabelName(l.text) {
				p.fail(l.pos, "invalid label name %q", l.text)
			}
			op := p.next()
			if op.kind != tokOp || !slices.Contains([]string{"=", "!=", "=~", "!~"}, op.text) {
				p.fail(op.pos, "unexpected %s in label matching, expected one of \"=\", \"!=\", \"=~\", \"!~\"", describe(op))
			}
			v := p.expect(tokString, "a quoted label value")
			val, err := unquote(v.text)
			if err != nil {
				p.fail(v.pos, "%v", err)
			}
			m, err := newMatcher(l.text, op.text, val)
			if err != nil {
				p.fail(v.pos, "%v", err)
			}
			if l.text == MetricName && name != "" {
				p.fail(l.pos, "metric name must not be set twice: %q or %q", name, val)
			}
			vs.Matchers = append(vs.Matchers, m)
			if p.peek().kind == tokComma {
				p.next()
				continue
			}
			if c := p.peek(); c.kind != tokRBrace {
				p.fail(c.pos, "unexpected %s in label matching, expected \",\" or \"}\"", describe(c))
			}
		}
		p.next()
	}
	nonEmpty := false
	for _, m := range vs.Matchers {
		nonEmpty = nonEmpty || !m.Matches("")
	}
	if !nonEmpty {
		p.fail(pos, "vector selector must contain at least one non-empty matcher")
	}
	return vs
}

func unquote(s string) (string, error) {
	switch s[0] {
	case '`':
		return s[1 : len(s)-1], nil
	case '\'':
		// Prometheus reads single-quoted strings as Go's double-quoted.
		inner := s[1 : len(s)-1]
		inner = strings.ReplaceAll(strings.ReplaceAll(inner, `\'`, `'`), `"`, `\"`)
		s = `"` + inner + `"`
	}
	v, err := strconv.Unquote(s)
	if err != nil {
		return "", fmt.Errorf("invalid quoted string %s", s)
	}
	return v, nil
}

// labelList parses (a, b, ...).
func (p *parser) labelList() []string {
	p.expect(tokLParen, "\"(\"")
	var out []string
	for p.peek().kind != tokRParen {
		l := p.next()
		if l.kind != tokIdent || !validLabelName(l.text) {
			p.fail(l.pos, "unexpected %s in grouping, expected label name", describe(l))
		}
		out = append(out, l.text)
		if p.peek().kind == tokComma {
			p.next()
		} else if c := p.peek(); c.kind != tokRParen {
			p.fail(c.pos, "unexpected %s in grouping, expected \",\" or \")\"", describe(c))
		}
	}
	p.next()
	return out
}

// aggregate parses op [by|without (labels)] (expr) [by|without (labels)].
func (p *parser) aggregate(op string, pos int) Expr {
	a := &Aggregate{Op: op, pos: pos}
	grouping := func() bool {
		n := p.peek()
		if n.kind != tokIdent || !(strings.EqualFold(n.text, "by") || strings.EqualFold(n.text, "without")) {
			return false
		}
		p.next()
		a.Without = strings.EqualFold(n.text, "without")
		a.Grouping = p.labelList()
		return true
	}
	before := grouping()
	lp := p.expect(tokLParen, "\"(\"")
	if p.peek().kind == tokRParen {
		p.fail(lp.pos, "no arguments for aggregate expression provided")
	}
	a.Expr = p.expr(0)
	if c := p.peek(); c.kind == tokComma {
		p.fail(c.pos, "wrong number of arguments for aggregate expression provided, expected 1")
	}
	p.expect(tokRParen, "\")\"")
	if grouping() && before {
		p.fail(pos, "aggregation %s has two groupings", op)
	}
	if a.Expr.Type() != VectorType {
		p.fail(a.Expr.Pos(), "expected type instant vector in aggregation expression, got %s", a.Expr.Type())
	}
	return a
}

// call parses a function call of the subset.
func (p *parser) call(name string, pos int) Expr {
	f, ok := functions[name]
	if !ok {
		p.unsupported(pos, "unsupported function %s", name)
	}
	p.expect(tokLParen, "\"(\"")
	c := &Call{Func: f, pos: pos}
	for p.peek().kind != tokRParen {
		c.Args = append(c.Args, p.expr(0))
		if p.peek().kind == tokComma {
			p.next()
		} else if n := p.peek(); n.kind != tokRParen {
			p.fail(n.pos, "unexpected %s in function call, expected \",\" or \")\"", describe(n))
		}
	}
	p.next()
	if len(c.Args) != len(f.args) {
		p.fail(pos, "expected %d argument(s) in call to %q, got %d", len(f.args), name, len(c.Args))
	}
	for i, a := range c.Args {
		// Prometheus unwraps parentheses around a range argument:
		// rate((x[5m])) is rate(x[5m]).
		for f.args[i] == MatrixType {
			pe, ok := c.Args[i].(*Paren)
			if !ok {
				break
			}
			c.Args[i] = pe.Expr
		}
		a = c.Args[i]
		if a.Type() != f.args[i] {
			p.fail(a.Pos(), "expected type %s in call to function %q, got %s", f.args[i], name, a.Type())
		}
	}
	return c
}

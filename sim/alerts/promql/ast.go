package promql

import "time"

// Expr is a parsed expression of the subset.
type Expr interface {
	// Type is what the expression evaluates to.
	Type() ValueType
	// Pos is the expression's byte offset in the text it was parsed from.
	Pos() int
}

// ValueType is the type of an expression's value.
type ValueType string

// The value types of the subset (no string results).
const (
	ScalarType ValueType = "scalar"
	VectorType ValueType = "instant vector"
	MatrixType ValueType = "range vector"
)

// NumberLiteral is a number.
type NumberLiteral struct {
	Val float64
	pos int
}

// VectorSelector selects the series its matchers match, at each
// evaluation time their latest sample within the lookback delta.
type VectorSelector struct {
	Name     string // the metric name, if given outside the braces
	Matchers []*Matcher
	pos      int
}

// MatrixSelector is a vector selector over a range: the samples in
// [t-Range, t].
type MatrixSelector struct {
	VS    *VectorSelector
	Range time.Duration
	pos   int
}

// Call is a function call.
type Call struct {
	Func *function
	Args []Expr
	pos  int
}

// Aggregate is sum, max, min, avg or count, by or without labels.
type Aggregate struct {
	Op       string
	Expr     Expr
	Grouping []string
	Without  bool
	pos      int
}

// Binary is a binary operation.
type Binary struct {
	Op         string
	LHS, RHS   Expr
	ReturnBool bool
	// Matching is set for an operation between two vectors.
	Matching *Matching
	pos      int
}

// Matching is how a vector-vector operation pairs samples: on the label
// sets less __name__ by default, on only the labels On if On, or on all
// but Labels and __name__ (ignoring).
type Matching struct {
	On     bool
	Labels []string
}

// Unary is unary minus (or plus).
type Unary struct {
	Op   string
	Expr Expr
	pos  int
}

// Paren is a parenthesized expression.
type Paren struct {
	Expr Expr
	pos  int
}

func (e *NumberLiteral) Type() ValueType  { return ScalarType }
func (e *VectorSelector) Type() ValueType { return VectorType }
func (e *MatrixSelector) Type() ValueType { return MatrixType }
func (e *Call) Type() ValueType           { return e.Func.ret }
func (e *Aggregate) Type() ValueType      { return VectorType }
func (e *Unary) Type() ValueType          { return e.Expr.Type() }
func (e *Paren) Type() ValueType          { return e.Expr.Type() }
func (e *Binary) Type() ValueType {
	if e.LHS.Type() == ScalarType && e.RHS.Type() == ScalarType {
		return ScalarType
	}
	return VectorType
}

func (e *NumberLiteral) Pos() int  { return e.pos }
func (e *VectorSelector) Pos() int { return e.pos }
func (e *MatrixSelector) Pos() int { return e.pos }
func (e *Call) Pos() int           { return e.pos }
func (e *Aggregate) Pos() int      { return e.pos }
func (e *Binary) Pos() int         { return e.pos }
func (e *Unary) Pos() int          { return e.pos }
func (e *Paren) Pos() int          { return e.pos }

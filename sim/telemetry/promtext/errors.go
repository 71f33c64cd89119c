package promtext

import (
	"fmt"
	"strconv"
)

// SyntaxError is a malformed line: the file (as named to Parse), the
// 1-based line and byte column where the problem is, and what is wrong.
type SyntaxError struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// BudgetError is a file with more series or points than Options allows:
// Budget names the Options field ("MaxSeries" or "MaxPoints") and Limit
// its value; Line is the line of the sample over the budget (0 for
// formats without lines).
type BudgetError struct {
	File   string
	Line   int
	Budget string
	Limit  int
}

func (e *BudgetError) Error() string {
	where := e.File
	if e.Line > 0 {
		where += ":" + strconv.Itoa(e.Line)
	}
	noun := "points"
	if e.Budget == "MaxSeries" {
		noun = "series"
	}
	return fmt.Sprintf("%s: more than %d %s, the %s budget (raise it to read this file)", where, e.Limit, noun, e.Budget)
}

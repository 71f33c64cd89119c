package experiment

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Error is one problem in an experiment file, located at the offending key.
type Error struct {
	File string // the file's name as given to Load or Parse
	Pos         // where the key (or value) is written
	Key  string // the key's dotted path, e.g. "service.1.workers"; "" for syntax errors
	Msg  string // what is wrong and what was expected
}

// Error formats the problem as "file:line:col: key: message", the form
// editors and CI logs link to.
func (e *Error) Error() string {
	if e.Key == "" {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s: %s", e.File, e.Line, e.Col, e.Key, e.Msg)
}

// ErrorList is every problem found in one file, in file order. Load and
// Parse return an ErrorList (as an error) when the file is invalid.
type ErrorList []*Error

// Error joins the problems, one per line.
func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// ErrInvalid matches (with errors.Is) every error that Load and Parse
// return for a bad file, as opposed to one that could not be read.
var ErrInvalid = errors.New("invalid experiment file")

// Is reports whether target is ErrInvalid.
func (l ErrorList) Is(target error) bool { return target == ErrInvalid }

// Is reports whether target is ErrInvalid.
func (e *Error) Is(target error) bool { return target == ErrInvalid }

// MaxErrors bounds the problems reported for one file (100); a file with
// more gets a last line counting the rest.
const MaxErrors = 100

// capped keeps the first MaxErrors problems and counts the rest.
func (l ErrorList) capped() ErrorList {
	if len(l) <= MaxErrors {
		return l
	}
	last := l[MaxErrors-1]
	more := &Error{File: last.File, Pos: last.Pos, Msg: fmt.Sprintf("and %d more problems (only the first %d are shown)", len(l)-MaxErrors, MaxErrors)}
	return append(l[:MaxErrors:MaxErrors], more)
}

func (l ErrorList) sorted() ErrorList {
	slices.SortStableFunc(l, func(a, b *Error) int {
		if c := cmp.Compare(a.Line, b.Line); c != 0 {
			return c
		}
		return cmp.Compare(a.Col, b.Col)
	})
	return l
}

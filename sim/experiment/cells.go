package experiment

import (
	"fmt"
)

// MaxSweepWork bounds the work of checking a sweep: combinations times
// the values in the document (each check copies and reads it once), 2e7,
// a few seconds of validation.
const MaxSweepWork = 20_000_000

// countValues counts the values of a decoded document, tables and arrays
// included.
func countValues(v any) int {
	n := 1
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			n += countValues(e)
		}
	case []map[string]any:
		for _, e := range x {
			n += countValues(e)
		}
	case []any:
		for _, e := range x {
			n += countValues(e)
		}
	}
	return n
}

// maxCellErrors bounds the cell problems reported for one sweep; the rest
// are counted.
const maxCellErrors = 20

// checkCells builds the model of every cell of the sweep for every swept
// variant, as ressim sweep will, and reports each that is invalid at the
// sweep value that makes it so: at the x value when the x value alone
// (with the variant) is invalid, else at the y value, else at both.
func (r *reader) checkCells(t *table, s *Sweep, e *Experiment) {
	variants := s.Variants
	if len(variants) == 0 {
		variants = []string{"base"}
	}
	xs, ys := s.X.Values, []any{nil}
	if s.Y != nil {
		ys = s.Y.Values
	}
	if !r.cellsCheckable(t, len(xs)*len(ys), len(variants), e) {
		return
	}
	reported, more := 0, 0
	report := func(path, format string, a ...any) {
		if reported < maxCellErrors {
			r.errorf(path, format, a...)
			reported++
		} else {
			more++
		}
	}
	for _, v := range variants {
		of := ""
		if v != "base" {
			of = fmt.Sprintf(" (variant %q)", v)
		}
		badX := map[int]bool{}
		for i, x := range xs {
			if _, err := e.VariantWith(v, map[string]any{s.X.Path: x}); err != nil {
				report(join(t.key("x.values"), fmt.Sprint(i)), "%s = %s%s: %v", s.X.Path, formatValue(x), of, err)
				badX[i] = true
			}
		}
		if s.Y == nil {
			continue
		}
		for j, y := range ys {
			if _, err := e.VariantWith(v, map[string]any{s.Y.Path: y}); err != nil {
				report(join(t.key("y.values"), fmt.Sprint(j)), "%s = %s%s: %v", s.Y.Path, formatValue(y), of, err)
				continue
			}
			for i, x := range xs {
				if badX[i] {
					continue
				}
				set := map[string]any{s.X.Path: x, s.Y.Path: y}
				if _, err := e.VariantWith(v, set); err != nil {
					report(join(t.key("y.values"), fmt.Sprint(j)), "the cell %s = %s, %s = %s%s: %v", s.X.Path, formatValue(x), s.Y.Path, formatValue(y), of, err)
				}
			}
		}
	}
	if more > 0 {
		r.errorf(t.path, "and %d more invalid cells", more)
	}
}

// cellsCheckable reports, at t, a sweep with too many combinations to
// check each (cells cells times variants variants) or one that would copy
// too much of the document doing so.
func (r *reader) cellsCheckable(t *table, cells, variants int, e *Experiment) bool {
	n := cells * variants
	if n > MaxSweepChecks {
		r.errorf(t.path, "%d cells x %d variants = %d combinations, more than %d", cells, variants, n, MaxSweepChecks)
		return false
	}
	if w := n * countValues(e.doc); w > MaxSweepWork {
		r.errorf(t.path, "checking %d combinations of a document of %d values would copy %d values, more than %d: use fewer sweep values or a smaller file", n, countValues(e.doc), w, MaxSweepWork)
		return false
	}
	return true
}

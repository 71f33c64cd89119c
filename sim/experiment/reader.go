package experiment

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/ressim/ressim/internal/textdist"
)

// reader extracts typed values from a decoded TOML document, collecting
// every problem with its position instead of stopping at the first.
type reader struct {
	file  string
	pos   positions
	errs  ErrorList
	calls []callRef // every downstream call read, for checkCalls
	deps  []callRef // readiness dependencies, for checkCalls
}

func (r *reader) errorf(path, format string, a ...any) {
	r.errs = append(r.errs, &Error{File: r.file, Pos: r.pos.lookup(path), Key: displayPath(path), Msg: fmt.Sprintf(format, a...)})
}

// displayPath writes array indexes in brackets: "service.1.workers" becomes
// "service[1].workers".
func displayPath(path string) string {
	parts := strings.Split(path, ".")
	var b strings.Builder
	for i, p := range parts {
		if i > 0 && p != "" && isDigits(p) {
			b.WriteString("[" + p + "]")
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// table is one TOML table being read; it remembers which keys were read so
// that the rest can be reported as unknown.
type table struct {
	r    *reader
	path string
	m    map[string]any
	used map[string]bool
	// anyKeys, when set, are the keys valid in some variant of this table.
	anyKeys []string
}

func (r *reader) root(m map[string]any) *table {
	return &table{r: r, m: m, used: map[string]bool{}}
}

func (t *table) key(k string) string { return join(t.path, k) }

// get returns the raw value of k and marks it read.
func (t *table) get(k string) (any, bool) {
	v, ok := t.m[k]
	if ok {
		t.used[k] = true
	}
	return v, ok
}

// has reports whether k is present, without marking it read.
func (t *table) has(k string) bool {
	_, ok := t.m[k]
	return ok
}

// done reports every key of t that was not read, with the keys it accepts.
func (t *table) done(known ...string) {
	var unknown []string
	for k := range t.m {
		if !t.used[k] {
			unknown = append(unknown, k)
		}
	}
	slices.Sort(unknown)
	for _, k := range unknown {
		if slices.Contains(t.allowed(), k) || slices.Contains(known, k) {
			t.r.errorf(t.key(k), "key %q does not apply here; expected one of: %s", k, strings.Join(known, ", "))
			continue
		}
		hint := ""
		if s := closest(k, known); s != "" {
			hint = fmt.Sprintf(" (did you mean %q?)", s)
		}
		t.r.errorf(t.key(k), "unknown key %q%s; expected one of: %s", k, hint, strings.Join(known, ", "))
	}
}

// allowed is every key a table of this kind may hold in some form, set by
// readers whose accepted keys depend on other keys (a fault's kind): a key
// in it but not in done's list is out of place, not misspelt.
func (t *table) allowed() []string { return t.anyKeys }

func typeName(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case map[string]any:
		return "a table"
	case []map[string]any:
		return "an array of tables"
	case []any:
		return "an array"
	case time.Time:
		return "a date-time"
	}
	return fmt.Sprintf("a %T", v)
}

// str reads a string. required reports a missing key as an error.
func (t *table) str(k string, required bool) (string, bool) {
	v, ok := t.get(k)
	if !ok {
		if required {
			t.r.errorf(t.path, "missing required key %q (a string)", k)
		}
		return "", false
	}
	s, ok := v.(string)
	if !ok {
		t.r.errorf(t.key(k), "expected a string, got %s", typeName(v))
		return "", false
	}
	return s, true
}

// integer reads an integer within [lo, hi].
func (t *table) integer(k string, required bool, lo, hi int64) (int64, bool) {
	v, ok := t.get(k)
	if !ok {
		if required {
			t.r.errorf(t.path, "missing required key %q (an integer)", k)
		}
		return 0, false
	}
	n, ok := v.(int64)
	if !ok {
		t.r.errorf(t.key(k), "expected an integer, got %s", typeName(v))
		return 0, false
	}
	if n < lo || n > hi {
		t.r.errorf(t.key(k), "must be in [%d, %d], got %d", lo, hi, n)
		return 0, false
	}
	return n, true
}

// number reads an integer or float within (lo, hi] when openLo, else [lo, hi].
func (t *table) number(k string, required bool, lo, hi float64, openLo bool, unit string) (float64, bool) {
	v, ok := t.get(k)
	if !ok {
		if required {
			t.r.errorf(t.path, "missing required key %q (a number, %s)", k, unit)
		}
		return 0, false
	}
	var x float64
	switch n := v.(type) {
	case int64:
		x = float64(n)
	case float64:
		x = n
	default:
		t.r.errorf(t.key(k), "expected a number (%s), got %s", unit, typeName(v))
		return 0, false
	}
	if math.IsNaN(x) || x > hi || x < lo || (openLo && x == lo) {
		lb := "["
		if openLo {
			lb = "("
		}
		t.r.errorf(t.key(k), "must be in %s%g, %g] (%s), got %g", lb, lo, hi, unit, x)
		return 0, false
	}
	return x, true
}

// MaxDuration bounds every duration in a file (about 100 days), so that
// sums of durations cannot overflow.
const MaxDuration = 100 * 24 * time.Hour

// duration reads a Go duration string ("250ms", "1m30s") within [lo, MaxDuration].
func (t *table) duration(k string, required bool, lo time.Duration) (time.Duration, bool) {
	v, ok := t.get(k)
	if !ok {
		if required {
			t.r.errorf(t.path, "missing required key %q (a duration such as \"10s\")", k)
		}
		return 0, false
	}
	s, ok := v.(string)
	if !ok {
		t.r.errorf(t.key(k), "expected a duration string such as \"10ms\" or \"1m30s\", got %s", typeName(v))
		return 0, false
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		t.r.errorf(t.key(k), "expected a duration such as \"10ms\" or \"1m30s\" (units ns, us, ms, s, m, h), got %q", s)
		return 0, false
	}
	if d < lo || d > MaxDuration {
		if lo > 0 {
			t.r.errorf(t.key(k), "must be in [%v, %v], got %v", lo, MaxDuration, d)
		} else {
			t.r.errorf(t.key(k), "must be in [0s, %v], got %v", MaxDuration, d)
		}
		return 0, false
	}
	return d, true
}

// sub reads a table (standard or inline).
func (t *table) sub(k string, required bool) (*table, bool) {
	v, ok := t.get(k)
	if !ok {
		if required {
			t.r.errorf(t.path, "missing required table %q", k)
		}
		return nil, false
	}
	m, ok := v.(map[string]any)
	if !ok {
		t.r.errorf(t.key(k), "expected a table, got %s", typeName(v))
		return nil, false
	}
	return &table{r: t.r, path: t.key(k), m: m, used: map[string]bool{}}, true
}

// tables reads an array of tables ([[k]] blocks or an array of inline tables).
func (t *table) tables(k string) []*table {
	v, ok := t.get(k)
	if !ok {
		return nil
	}
	var ms []map[string]any
	switch a := v.(type) {
	case []map[string]any:
		ms = a
	case []any:
		for i, e := range a {
			m, ok := e.(map[string]any)
			if !ok {
				t.r.errorf(join(t.key(k), fmt.Sprint(i)), "expected a table, got %s", typeName(e))
				continue
			}
			ms = append(ms, m)
		}
	default:
		t.r.errorf(t.key(k), "expected an array of tables ([[%s]]), got %s", k, typeName(v))
		return nil
	}
	out := make([]*table, len(ms))
	for i, m := range ms {
		out[i] = &table{r: t.r, path: join(t.key(k), fmt.Sprint(i)), m: m, used: map[string]bool{}}
	}
	return out
}

// closest returns the candidate within edit distance 2 of s, if any.
func closest(s string, candidates []string) string {
	return textdist.Nearest(s, candidates, 2)
}

// boolean reads a boolean; def is returned when the key is absent.
func (t *table) boolean(k string, def bool) (bool, bool) {
	v, ok := t.get(k)
	if !ok {
		return def, false
	}
	b, ok := v.(bool)
	if !ok {
		t.r.errorf(t.key(k), "expected true or false, got %s", typeName(v))
		return def, false
	}
	return b, true
}

// strings reads an array of strings.
func (t *table) strings(k string) ([]string, bool) {
	v, ok := t.get(k)
	if !ok {
		return nil, false
	}
	a, ok := v.([]any)
	if !ok {
		t.r.errorf(t.key(k), "expected an array of strings, got %s", typeName(v))
		return nil, false
	}
	out := make([]string, 0, len(a))
	for i, e := range a {
		s, ok := e.(string)
		if !ok {
			t.r.errorf(join(t.key(k), fmt.Sprint(i)), "expected a string, got %s", typeName(e))
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// oneOf reads a string that must be one of names; it returns its index.
func (t *table) oneOf(k string, names []string) (int, bool) {
	s, ok := t.str(k, false)
	if !ok {
		return 0, false
	}
	for i, n := range names {
		if n == s {
			return i, true
		}
	}
	hint := ""
	if c := closest(s, names); c != "" {
		hint = fmt.Sprintf(" (did you mean %q?)", c)
	}
	t.r.errorf(t.key(k), "unknown value %q%s; expected one of: %s", s, hint, strings.Join(names, ", "))
	return 0, false
}

package experiment

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// actionBodyTOML writes the action keys of a decoded move table m (its
// set, or its kind and that kind's keys) as TOML lines, in the order of
// actionBodyKeys, so that they read back as the same action.
func actionBodyTOML(m map[string]any) (string, error) {
	var b strings.Builder
	for _, k := range actionBodyKeys {
		v, ok := m[k]
		if !ok {
			continue
		}
		s, err := TOMLValue(v)
		if err != nil {
			return "", fmt.Errorf("%s: %w", k, err)
		}
		b.WriteString(k + " = " + s + "\n")
	}
	return b.String(), nil
}

// TOMLValue writes a decoded TOML value (string, integer, float,
// boolean, table as an inline table with quoted keys in sorted order,
// array) as TOML that decodes to the same value. Dates are refused.
func TOMLValue(v any) (string, error) {
	switch x := v.(type) {
	case string:
		return TOMLString(x), nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case float64:
		return tomlFloatText(x), nil
	case bool:
		return strconv.FormatBool(x), nil
	case map[string]any:
		keys := sortedKeys(x)
		parts := make([]string, len(keys))
		for i, k := range keys {
			s, err := TOMLValue(x[k])
			if err != nil {
				return "", err
			}
			parts[i] = TOMLString(k) + " = " + s
		}
		if len(parts) == 0 {
			return "{}", nil
		}
		return "{ " + strings.Join(parts, ", ") + " }", nil
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			s, err := TOMLValue(e)
			if err != nil {
				return "", err
			}
			parts[i] = s
		}
		return "[" + strings.Join(parts, ", ") + "]", nil
	case []map[string]any:
		a := make([]any, len(x))
		for i, e := range x {
			a[i] = e
		}
		return TOMLValue(a)
	}
	return "", fmt.Errorf("cannot write %s", typeName(v))
}

// tomlFloatText writes f so that TOML reads it back as the same float (not
// as an integer).
func tomlFloatText(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// TOMLString writes s as a TOML basic string: quotes, backslashes and
// control characters escaped, invalid UTF-8 replaced by U+FFFD.
func TOMLString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range strings.ToValidUTF8(s, string(utf8.RuneError)) {
		switch {
		case c == '"':
			b.WriteString(`\"`)
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\r':
			b.WriteString(`\r`)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, c)
		default:
			b.WriteRune(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

package experiment

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// decodeValue decodes the TOML document "v = text" and returns v.
func decodeValue(text string) (any, error) {
	var doc map[string]any
	_, err := toml.Decode("v = "+text, &doc)
	return doc["v"], err
}

// sameValue is reflect.DeepEqual with NaN equal to NaN, and an array of
// tables equal to the same tables in an array of values (which is how
// an inline array of tables decodes).
func sameValue(a, b any) bool {
	a, b = tablesAsValues(a), tablesAsValues(b)
	if fa, ok := a.(float64); ok {
		if fb, ok := b.(float64); ok && math.IsNaN(fa) && math.IsNaN(fb) {
			return true
		}
	}
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			if w, ok := y[k]; !ok || !sameValue(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameValue(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

// tablesAsValues returns an array of tables as an array of values.
func tablesAsValues(v any) any {
	m, ok := v.([]map[string]any)
	if !ok {
		return v
	}
	a := make([]any, len(m))
	for i := range m {
		a[i] = m[i]
	}
	return a
}

// TestTOMLValueRoundTrip writes values of every kind TOMLValue takes and
// decodes them back to the same value: special floats, the escapes, keys
// that need quoting, empty and nested tables, arrays of tables.
func TestTOMLValueRoundTrip(t *testing.T) {
	values := []any{
		math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 5e-324, float64(1 << 53), 3.0,
		"tab\there\r\n", "\x00\x1f\x7f é ✓", "bad \xff utf-8",
		map[string]any{}, map[string]any{"a b": int64(1), "": "empty key", "x.y": map[string]any{"z": true}},
		[]any{}, []any{int64(1), "two", 3.5, []any{false}},
		[]map[string]any{{"p": int64(1)}, {"q": "r"}},
	}
	for _, v := range values {
		text, err := TOMLValue(v)
		if err != nil {
			t.Errorf("%#v: %v", v, err)
			continue
		}
		got, err := decodeValue(text)
		if err != nil {
			t.Errorf("%#v: wrote %s, which does not decode: %v", v, text, err)
			continue
		}
		want := v
		if s, ok := v.(string); ok {
			want = strings.ToValidUTF8(s, "\uFFFD")
		}
		if !sameValue(got, want) {
			t.Errorf("%#v: wrote %s, read back %#v", v, text, got)
		}
	}
	if _, err := TOMLValue(struct{}{}); err == nil || !strings.Contains(err.Error(), "cannot write") {
		t.Errorf("a struct: %v, want an error", err)
	}
}

// FuzzTOMLValue: any value a TOML document holds (dates aside, which
// TOMLValue refuses), written by TOMLValue, decodes to the same value.
func FuzzTOMLValue(f *testing.F) {
	for _, s := range []string{`"a\"b"`, `{ "k" = [1, 2.5, "x"], b = { c = true } }`, `nan`, `-inf`,
		`[[1], ["a"], [{ x = 1 }]]`, `'''raw\n'''`, `"\u0000\u007f"`, `0x1F`, `1e-7`, `[]`, `{}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		v, err := decodeValue(src)
		if err != nil || v == nil {
			return
		}
		text, err := TOMLValue(v)
		if err != nil {
			if strings.Contains(err.Error(), "cannot write") {
				return // a date or time
			}
			t.Fatalf("%q: %v", src, err)
		}
		got, err := decodeValue(text)
		if err != nil {
			t.Fatalf("%q: wrote %s, which does not decode: %v", src, text, err)
		}
		if !sameValue(got, v) {
			t.Fatalf("%q: wrote %s, read back %#v, want %#v", src, text, got, v)
		}
	})
}

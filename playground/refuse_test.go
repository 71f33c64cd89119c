package playground

import (
	"reflect"
	"strings"
	"testing"
)

// TestExecuteRefuses: a run the page asks for with a seed that is not a
// whole number, or knob settings that are not JSON or name no setting,
// is refused before anything runs, with a message naming the input.
func TestExecuteRefuses(t *testing.T) {
	text := bundled(t, "retry-amplification.toml")
	for _, c := range []struct{ seed, set, want string }{
		{"x", "", `seed "x": want a whole number >= 0`},
		{"-1", "", `seed "-1": want a whole number >= 0`},
		{"1.5", "", `seed "1.5"`},
		{"", "{", "knob settings: unexpected end of JSON input"},
		{"", `{"client.nobody.rate": 5}`, "knob settings:"},
		{"", `[1]`, "knob settings: json: cannot unmarshal array"},
	} {
		if r := Execute(text, c.seed, c.set, nil); !strings.Contains(r.Error, c.want) || r.Summary != "" {
			t.Errorf("seed %q set %q: error %q (summary %d bytes), want %q", c.seed, c.set, r.Error, len(r.Summary), c.want)
		}
	}
}

// TestFiringTimesBounds: the firing times the page sends are bounded in
// bytes and in count before they are read.
func TestFiringTimesBounds(t *testing.T) {
	if _, err := firingTimes(strings.Repeat(" ", maxFiringJSON+1)); err == nil || !strings.Contains(err.Error(), "bytes of JSON, at most") {
		t.Errorf("too long: %v", err)
	}
	many := "[" + strings.TrimSuffix(strings.Repeat("1,", 10001), ",") + "]"
	if _, err := firingTimes(many); err == nil || !strings.Contains(err.Error(), "10001 times, at most 10000") {
		t.Errorf("too many: %v", err)
	}
	if got, err := firingTimes("[0, 1.5]"); err != nil || len(got) != 2 || got[1].Seconds() != 1.5 {
		t.Errorf("[0, 1.5]: %v %v", got, err)
	}
	if got, err := firingTimes(""); err != nil || got != nil {
		t.Errorf(`"": %v %v`, got, err)
	}
}

// TestFromJSON: JSON's numbers become what the TOML reader gives, whole
// numbers int64 (below 2^53, where a float64 is exact), inside tables
// and arrays too.
func TestFromJSON(t *testing.T) {
	in := map[string]any{"n": 3.0, "f": 2.5, "big": 1e300, "neg": -4.0,
		"a": []any{1.0, "s", []any{2.0, 0.5}}, "t": map[string]any{"k": 7.0, "b": true}}
	want := map[string]any{"n": int64(3), "f": 2.5, "big": 1e300, "neg": int64(-4),
		"a": []any{int64(1), "s", []any{int64(2), 0.5}}, "t": map[string]any{"k": int64(7), "b": true}}
	if got := fromJSON(in); !reflect.DeepEqual(got, want) {
		t.Errorf("fromJSON:\n got %#v\nwant %#v", got, want)
	}
}

package topology

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// TestValidateRanges: for every setting of the range table, Validate
// accepts the range's bounds (or, at an open end, the nearest value
// inside) and refuses the nearest values outside, with the file's
// message; the Go value that means "absent" is accepted, and the value
// past it refused.
func TestValidateRanges(t *testing.T) {
	if err := validWith(rangeBase(), nil, 0); err != nil {
		t.Fatalf("base: %v", err)
	}
	for _, r := range SettingRanges() {
		set, ok := settingSetters[r.Setting]
		if !ok {
			t.Errorf("%s: no setter in settingSetters", r.Setting)
			continue
		}
		for _, x := range inside(r.Range) {
			if err := validWith(rangeBase(), set, x); err != nil {
				t.Errorf("%s = %g refused: %v", r.Setting, x, err)
			}
		}
		for _, x := range outside(r) {
			err := validWith(rangeBase(), set, x)
			want := r.Setting.Key() + " " + r.Range.Refusal(x)
			if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), want) {
				t.Errorf("%s = %g: err = %v, want one saying %q", r.Setting, x, err, want)
			}
		}
		if r.Means != "" {
			if err := validWith(rangeBase(), set, r.Absent); err != nil {
				t.Errorf("%s = %g (%s) refused: %v", r.Setting, r.Absent, r.Means, err)
			}
		}
	}
	if len(settingSetters) != len(SettingRanges()) {
		t.Errorf("%d setters for %d settings", len(settingSetters), len(SettingRanges()))
	}
}

// validWith validates c after set(c, x).
func validWith(c Config, set func(*Config, float64), x float64) error {
	if set != nil {
		set(&c, x)
	}
	return c.Validate()
}

// inside returns the range's ends, or the nearest values inside an open
// end, and 0 when Zero.
func inside(g Range) []float64 {
	lo, hi := g.Lo, g.Hi
	if g.OpenLo {
		lo = math.Nextafter(lo, math.Inf(1))
	}
	if g.OpenHi {
		hi = math.Nextafter(hi, math.Inf(-1))
	}
	xs := []float64{lo, hi}
	if g.Zero {
		xs = append(xs, 0)
	}
	return xs
}

// outside returns the nearest values outside the range (the next integer
// for an integer range), past the absent value when it borders the
// range, and NaN for a number; and -1 below a range with 0 besides.
func outside(r SettingRange) []float64 {
	g := r.Range
	below, above := math.Nextafter(g.Lo, math.Inf(-1)), math.Nextafter(g.Hi, math.Inf(1))
	if g.Int {
		below, above = g.Lo-1, g.Hi+1
	}
	if g.OpenLo {
		below = g.Lo
	}
	if g.OpenHi {
		above = g.Hi
	}
	if r.Means != "" && below == r.Absent {
		below = math.Nextafter(below, math.Inf(-1))
		if g.Int {
			below = r.Absent - 1
		}
	}
	xs := []float64{below, above}
	if !g.Int {
		xs = append(xs, math.NaN())
	}
	if g.Zero {
		xs = append(xs, -1)
	}
	return xs
}

// TestAbsentOutsideRange: a row's absent value is one the range refuses
// (else it would need no row), so the file refuses it when written.
func TestAbsentOutsideRange(t *testing.T) {
	for _, r := range SettingRanges() {
		if r.Means != "" && r.Range.Contains(r.Absent) {
			t.Errorf("%s: absent value %g is in %s", r.Setting, r.Absent, r.Range.Interval())
		}
		if r.Means == "" && r.Absent != 0 {
			t.Errorf("%s: absent value %g without a meaning", r.Setting, r.Absent)
		}
	}
}

func TestSettingNames(t *testing.T) {
	seen := map[Setting]bool{}
	for _, r := range SettingRanges() {
		if seen[r.Setting] {
			t.Errorf("%s twice in the table", r.Setting)
		}
		seen[r.Setting] = true
		if r.Setting.Key() == "" || strings.Contains(r.Setting.Key(), ".") || r.Unit == "" {
			t.Errorf("%s: key %q, unit %q", r.Setting, r.Setting.Key(), r.Unit)
		}
	}
	if g := Setting("no.such").Range(); g.Contains(1) || g.Contains(0) {
		t.Errorf("an unknown setting's range %v accepts values", g)
	}
}

func TestRangeContains(t *testing.T) {
	for _, tt := range []struct {
		g    Range
		x    float64
		want bool
	}{
		{Range{Lo: 0, Hi: 100, OpenLo: true}, 0, false},
		{Range{Lo: 0, Hi: 100, OpenLo: true}, 100, true},
		{Range{Lo: 0, Hi: 1, OpenLo: true, OpenHi: true}, 1, false},
		{Range{Lo: 1e-6, Hi: 1000, Zero: true}, 0, true},
		{Range{Lo: 1e-6, Hi: 1000, Zero: true}, 1e-7, false},
		{Range{Lo: 1e-6, Hi: 1000, Zero: true}, 1000, true},
		{Range{Lo: 0, Hi: 1}, math.Copysign(0, -1), true}, // negative zero
		{Range{Lo: 0, Hi: 1}, math.NaN(), false},
	} {
		if got := tt.g.Contains(tt.x); got != tt.want {
			t.Errorf("%v contains %g = %v", tt.g, tt.x, got)
		}
	}
	for _, tt := range []struct {
		g    Range
		want string
	}{
		{Range{Lo: 1e-6, Hi: 1000, Zero: true}, "`0` or in [10^-6, 1000]"},
		{Range{Lo: 1, Hi: 1 << 20, Int: true}, "1 to 2^20"},
		{Range{Lo: 0, Hi: 1e9, OpenLo: true}, "in (0, 10^9]"},
	} {
		if s := tt.g.String(); s != tt.want {
			t.Errorf("String = %q, want %q", s, tt.want)
		}
	}
	if s := (Range{Lo: 0, Hi: 1e6, OpenLo: true, Unit: "factor"}).Refusal(0); s != "must be in (0, 10^6] (factor), got 0" {
		t.Errorf("Refusal = %q", s)
	}
}

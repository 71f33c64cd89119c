package textdist

import "testing"

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"standrad", "standard", 2}, {"no-retry", "no-retries", 3},
		{"kitten", "sitting", 3}, {string(make([]byte, 65)), "", maxLen + 1},
	} {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestNearest(t *testing.T) {
	modes := []string{"legacy", "standard", "adaptive"}
	for _, tc := range []struct {
		s      string
		within int
		want   string
	}{
		{"standrad", 2, "standard"}, {"standrad", 1, ""}, {"adaptiv", 3, "adaptive"}, {"xyz", 2, ""},
	} {
		if got := Nearest(tc.s, modes, tc.within); got != tc.want {
			t.Errorf("Nearest(%q, %d) = %q, want %q", tc.s, tc.within, got, tc.want)
		}
	}
}

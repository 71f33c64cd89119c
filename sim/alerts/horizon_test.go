package alerts

import (
	"testing"
	"time"
)

// TestDefaultHorizon: the longest window plus for; a multi-window "and"
// resolves with its shortest part, windows found through recording rules.
func TestDefaultHorizon(t *testing.T) {
	for _, c := range []struct {
		rules string
		want  time.Duration
	}{
		{"../../experiments/alerts/retry-storm.rules.yml", 30 * time.Minute}, // slow burn: 6h and 30m, no for
		{"../../experiments/alerts/degraded-200.rules.yml", 7 * time.Minute}, // 5m window, for 2m
		{"../../experiments/alerts/patterns.rules.yml", 5 * time.Minute},
	} {
		h, err := DefaultHorizon(c.rules)
		if err != nil {
			t.Fatal(err)
		}
		if h != c.want {
			t.Errorf("%s: %v, want %v", c.rules, h, c.want)
		}
	}
	for s, want := range map[string]time.Duration{"1h30m": 90 * time.Minute, "5m": 5 * time.Minute, "1d": 24 * time.Hour, "500ms": 500 * time.Millisecond} {
		if d, ok := promDuration(s); !ok || d != want {
			t.Errorf("promDuration(%q) = %v, %v", s, d, ok)
		}
	}
	if _, ok := promDuration("5x"); ok {
		t.Error("5x parsed")
	}
	if p := splitTopAnd(`a{x="and"} > 1 and on(job) (b and c)`); len(p) != 2 {
		t.Errorf("split: %q", p)
	}
}

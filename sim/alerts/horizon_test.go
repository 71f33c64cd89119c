package alerts

import (
	"os"
	"path/filepath"
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
	if p := splitTop(`a{x="and"} > 1 and on(job) (b and c)`, "and"); len(p) != 2 {
		t.Errorf("split: %q", p)
	}
	if _, ok := unwrap("(a) and (b)"); ok {
		t.Error("(a) and (b) unwrapped")
	}
	w := &windower{records: map[string]string{"r5m": "rate(x[5m])", "r1h": "rate(x[1h])"}, memo: map[string]time.Duration{}}
	if d := w.expr("(r5m > 1 and r1h > 1) or (rate(x[30m]) > 1 and rate(x[6h]) > 1)", 0); d != 30*time.Minute {
		t.Errorf("(5m and 1h) or (30m and 6h): %v, want 30m", d)
	}
}

// TestDefaultHorizonSloth: Sloth's generated multi-window multi-burn-rate
// alerts ((short and long) or (short and long)) need their slowest pair's
// short window: 30m for the page, 6h for the ticket. The file is kept
// outside the repository in ../shared/real-configs; skipped when absent.
func TestDefaultHorizonSloth(t *testing.T) {
	p := filepath.Join("..", "..", "..", "shared", "real-configs", "alerts", "sloth-getting-started.ressim.yml")
	if _, err := os.Stat(p); err != nil {
		t.Skip(err)
	}
	h, err := DefaultHorizon(p)
	if err != nil {
		t.Fatal(err)
	}
	if h != 6*time.Hour {
		t.Errorf("%v, want 6h (the ticket alert's 6h and 3d pair)", h)
	}
}

// TestExtendModel: the extended model runs longer with the same faults,
// a fault that outlasted the run ending at the run's end; the model
// itself is not changed.
func TestExtendModel(t *testing.T) {
	cfg := timingModel()
	cfg.Faults = append(cfg.Faults, cfg.Faults[0])
	cfg.Faults[1].Start, cfg.Faults[1].End = 5*time.Second, time.Hour
	ext := extendModel(cfg, 8*time.Second)
	if ext.Duration != 14*time.Second || ext.Faults[0].End != 3*time.Second || ext.Faults[1].End != 6*time.Second {
		t.Errorf("extended: %v, faults %+v", ext.Duration, ext.Faults)
	}
	if cfg.Faults[1].End != time.Hour {
		t.Error("extendModel changed the model's faults")
	}
}

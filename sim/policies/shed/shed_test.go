package shed

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

const (
	crit = policies.Critical
	norm = policies.Normal
	bg   = policies.Background
)

// Bottom-up shedding with the defaults on a service of capacity 10: as the
// service fills, Background goes first (at 5 of 10), then Normal (at 8),
// then Critical (only at 10, full).
func TestShedSteps(t *testing.T) {
	s, err := New(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	const ms = time.Millisecond
	steps := []struct {
		at       time.Duration
		p        policies.Priority
		used     int
		capacity int
		admitted bool
	}{
		{0, bg, 0, 10, true},
		{1 * ms, bg, 4, 10, true},   // 40 % < 50 %
		{2 * ms, bg, 5, 10, false},  // 50 %: background shed
		{3 * ms, norm, 5, 10, true}, // normal still admitted
		{4 * ms, norm, 7, 10, true},
		{5 * ms, norm, 8, 10, false}, // 80 %: normal shed
		{6 * ms, crit, 8, 10, true},
		{7 * ms, crit, 9, 10, true},                   // critical until full
		{8 * ms, crit, 10, 10, false},                 // full
		{9 * ms, crit, 12, 10, false},                 // over-full (a queue counted in used)
		{10 * ms, bg, 1, 10, true},                    // load fell: background back
		{11 * ms, crit, 0, 0, false},                  // no capacity at all: full
		{12 * ms, policies.Priority(7), 4, 10, true},  // unknown class: as background
		{13 * ms, policies.Priority(7), 5, 10, false}, // ... shed at 50 %
	}
	for i, st := range steps {
		d := s.Admit(st.at, st.p, st.used, st.capacity)
		if d.Admitted != st.admitted {
			t.Errorf("step %d at %v: %v with %d/%d admitted %v, want %v", i, st.at, st.p, st.used, st.capacity, d.Admitted, st.admitted)
		}
		if d.Admitted {
			if d.Status != 0 || d.RetryAfter != 0 {
				t.Errorf("step %d: admitted with status %d retry-after %v", i, d.Status, d.RetryAfter)
			}
		} else if d.Status != 503 || d.RetryAfter != time.Second {
			t.Errorf("step %d: shed with status %d retry-after %v, want 503 and 1s", i, d.Status, d.RetryAfter)
		}
		if st.p < policies.NumPriorities && d.Priority != st.p {
			t.Errorf("step %d: priority %v, want %v", i, d.Priority, st.p)
		}
		if st.p >= policies.NumPriorities && d.Priority != bg {
			t.Errorf("step %d: unknown class judged as %v, want background", i, d.Priority)
		}
	}
	want := Stats{
		Admitted: [3]uint64{crit: 2, norm: 2, bg: 4},
		Shed:     [3]uint64{crit: 3, norm: 1, bg: 2},
	}
	if got := s.Stats(); got != want {
		t.Errorf("Stats %+v, want %+v", got, want)
	}
}

func TestCustomConfig(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Threshold = [3]float64{0.95, 0.6, 0.3}
	cfg.Status = 429
	cfg.RetryAfter = 3 * time.Second
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		p     policies.Priority
		u     float64
		admit bool
	}{
		{bg, 0.29, true}, {bg, 0.3, false}, {norm, 0.59, true}, {norm, 0.6, false},
		{crit, 0.94, true}, {crit, 0.95, false}, {crit, math.NaN(), false},
	} {
		d := s.AdmitUtilization(0, tc.p, tc.u)
		if d.Admitted != tc.admit {
			t.Errorf("%v at %v: admitted %v, want %v", tc.p, tc.u, d.Admitted, tc.admit)
		}
		if s.Sheds(tc.p, tc.u) == tc.admit {
			t.Errorf("Sheds(%v, %v) disagrees with AdmitUtilization", tc.p, tc.u)
		}
		if !d.Admitted && (d.Status != 429 || d.RetryAfter != 3*time.Second) {
			t.Errorf("rejection %+v", d)
		}
	}
}

func TestUtilization(t *testing.T) {
	for _, tc := range []struct {
		used, capacity int
		want           float64
	}{{0, 10, 0}, {5, 10, 0.5}, {15, 10, 1.5}, {0, 0, 1}, {3, -1, 1}} {
		if got := Utilization(tc.used, tc.capacity); got != tc.want {
			t.Errorf("Utilization(%d, %d) = %v, want %v", tc.used, tc.capacity, got, tc.want)
		}
	}
}

func TestConfigValidation(t *testing.T) {
	bad := []func(*Config){
		func(c *Config) { c.Threshold[crit] = 0 },
		func(c *Config) { c.Threshold[crit] = 1.1 },
		func(c *Config) { c.Threshold[norm] = math.NaN() },
		func(c *Config) { c.Threshold[bg] = 0.9 }, // above normal: not bottom-up
		func(c *Config) { c.Threshold[norm] = 1.0; c.Threshold[crit] = 0.9 },
		func(c *Config) { c.RetryAfter = 0 },
		func(c *Config) { c.Status = 500 },
	}
	for i, f := range bad {
		c := DefaultConfig()
		f(&c)
		if _, err := New(c); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("bad config %d (%+v): error %v, want ErrInvalidConfig", i, c, err)
		}
	}
	s, err := New(DefaultConfig())
	if err != nil {
		t.Fatalf("defaults rejected: %v", err)
	}
	if s.Config() != DefaultConfig() {
		t.Error("Config() differs from the one given")
	}
}

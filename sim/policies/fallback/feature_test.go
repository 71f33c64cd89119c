package fallback

import (
	"errors"
	"testing"
	"time"
)

const (
	sec = time.Second
	min = time.Minute
)

func TestLevel(t *testing.T) {
	for l := Level(0); l < NumLevels; l++ {
		got, ok := ParseLevel(l.String())
		if !ok || got != l {
			t.Errorf("ParseLevel(%q) = %v, %v", l.String(), got, ok)
		}
	}
	if _, ok := ParseLevel("nope"); ok || Level(9).String() != "unknown" {
		t.Error("unknown level")
	}
	for l, want := range map[Level][2]bool{
		Fresh: {false, false}, Stale: {true, false}, Generic: {true, false},
		Empty: {true, false}, FeatureError: {false, true}, SystemError: {false, true},
	} {
		if l.Degraded() != want[0] || l.Failed() != want[1] {
			t.Errorf("%v: Degraded %v Failed %v, want %v", l, l.Degraded(), l.Failed(), want)
		}
	}
}

// Walking down the hierarchy: each failed level moves to the next
// available one.
func TestAttemptSteps(t *testing.T) {
	for _, tc := range []struct {
		name     string
		cfg      func(*Config)
		now      time.Duration
		cached   Cached
		killed   bool
		want     []Level // Level() at Begin, then after each Fail
		stalefor time.Duration
	}{
		{name: "full ladder", now: 1000 * sec, cached: Cached{Present: true, StoredAt: 0},
			want: []Level{Fresh, Stale, Generic, Empty, FeatureError, SystemError, SystemError}, stalefor: 400 * sec},
		{name: "no cache", now: 1000 * sec,
			want: []Level{Fresh, Generic, Empty, FeatureError, SystemError}},
		{name: "cache still fresh", now: 600 * sec, cached: Cached{Present: true, StoredAt: 0},
			want: []Level{Fresh, Stale}, stalefor: 0},
		{name: "stale at the limit (600+1200 s)", now: 1800 * sec, cached: Cached{Present: true, StoredAt: 0},
			want: []Level{Fresh, Stale}, stalefor: 1200 * sec},
		{name: "too stale", now: 1800*sec + 1, cached: Cached{Present: true, StoredAt: 0},
			want: []Level{Fresh, Generic}},
		{name: "cache from the future", now: 10 * sec, cached: Cached{Present: true, StoredAt: 20 * sec},
			want: []Level{Fresh, Generic}},
		{name: "stale disabled", cfg: func(c *Config) { c.MaxStale = -1 }, now: sec, cached: Cached{Present: true},
			want: []Level{Fresh, Generic}},
		{name: "no generic, no empty", cfg: func(c *Config) { c.HasGeneric, c.HasEmpty = false, false }, now: sec,
			want: []Level{Fresh, FeatureError, SystemError}},
		{name: "killed: honest empty block", killed: true, now: sec, cached: Cached{Present: true},
			want: []Level{Empty, FeatureError, SystemError}},
		{name: "killed to stale, no cache", cfg: func(c *Config) { c.KilledLevel = Stale }, killed: true, now: sec,
			want: []Level{Generic, Empty}},
		{name: "killed to stale, cache", cfg: func(c *Config) { c.KilledLevel = Stale }, killed: true, now: sec,
			cached: Cached{Present: true}, want: []Level{Stale, Generic}},
		{name: "killed to empty without empty", cfg: func(c *Config) { c.HasEmpty = false }, killed: true, now: sec,
			want: []Level{FeatureError, SystemError}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DefaultConfig()
			if tc.cfg != nil {
				tc.cfg(&cfg)
			}
			f, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if tc.killed {
				f.Kill(0, "test")
			}
			a := f.Begin(tc.now, tc.cached)
			if a.Level() != tc.want[0] {
				t.Fatalf("Begin: %v, want %v", a.Level(), tc.want[0])
			}
			for i, w := range tc.want[1:] {
				if got := a.Fail(); got != w || a.Level() != w {
					t.Fatalf("Fail %d: %v, want %v", i+1, got, w)
				}
				if w == Stale && a.Staleness() != tc.stalefor {
					t.Errorf("Staleness %v, want %v", a.Staleness(), tc.stalefor)
				}
			}
		})
	}
}

func TestKillSwitch(t *testing.T) {
	f, _ := New(DefaultConfig())
	if f.KillSwitch().Killed {
		t.Fatal("killed at start")
	}
	steps := []struct {
		at     time.Duration
		op     string // kill, revive, begin
		want   Level
		killed bool
	}{
		{at: 0, op: "begin", want: Fresh},
		{at: 10 * sec, op: "kill", killed: true},
		{at: 11 * sec, op: "begin", want: Empty, killed: true},
		{at: 20 * sec, op: "revive"},
		{at: 21 * sec, op: "begin", want: Fresh},
	}
	for i, s := range steps {
		switch s.op {
		case "kill":
			if c := f.Kill(s.at, "recommendations down"); c != (KillChange{At: s.at, Killed: true, Reason: "recommendations down"}) {
				t.Errorf("step %d: %+v", i, c)
			}
		case "revive":
			if c := f.Revive(s.at, "fixed"); c != (KillChange{At: s.at, Killed: false, Reason: "fixed"}) {
				t.Errorf("step %d: %+v", i, c)
			}
		case "begin":
			if a := f.Begin(s.at, Cached{}); a.Level() != s.want {
				t.Errorf("step %d at %v: %v, want %v", i, s.at, a.Level(), s.want)
			}
		}
		if f.KillSwitch().Killed != s.killed {
			t.Errorf("step %d: killed %v, want %v", i, f.KillSwitch().Killed, s.killed)
		}
	}
}

func TestServeCounts(t *testing.T) {
	f, _ := New(DefaultConfig())
	for i, fails := range []int{0, 0, 1, 2, 2, 3, 4, 9} {
		a := f.Begin(time.Duration(i)*sec, Cached{Present: true, StoredAt: 0})
		for j := 0; j < fails; j++ {
			a.Fail()
		}
		f.Serve(time.Duration(i)*sec, a)
	}
	want := Stats{Served: [NumLevels]uint64{2, 1, 2, 1, 1, 1}}
	st := f.Stats()
	if st != want {
		t.Errorf("Stats %+v, want %+v", st, want)
	}
	if st.Degraded() != 4 || st.Failed() != 2 {
		t.Errorf("Degraded %d Failed %d, want 4 and 2", st.Degraded(), st.Failed())
	}
}

func TestConfigValidation(t *testing.T) {
	bad := []func(*Config){
		func(c *Config) { c.MaxAge = -1 },
		func(c *Config) { c.KilledLevel = Fresh },
		func(c *Config) { c.KilledLevel = 7 },
		func(c *Config) { c.AlertAfter = 0 },
		func(c *Config) { c.Window = 0 },
		func(c *Config) { c.Window = 6 * min },
		func(c *Config) { c.DegradedRatio = 0 },
		func(c *Config) { c.DegradedRatio = 1.5 },
	}
	for i, fn := range bad {
		c := DefaultConfig()
		fn(&c)
		if _, err := New(c); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("bad config %d: error %v, want ErrInvalidConfig", i, err)
		}
	}
	if _, err := NewTracker(TrackerConfig{}); !errors.Is(err, ErrInvalidConfig) {
		t.Errorf("zero TrackerConfig: error %v, want ErrInvalidConfig", err)
	}
	if _, err := New(DefaultConfig()); err != nil {
		t.Errorf("defaults rejected: %v", err)
	}
}

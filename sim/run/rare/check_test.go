package rare

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestCheckRefusals is a step table of Check: each option out of its
// range is refused by name, as ErrSetup, and the defaults pass.
func TestCheckRefusals(t *testing.T) {
	cfg := loadExact(t, 2).Model
	ok := Options{Method: AMS, Runs: 100}
	cases := []struct {
		name string
		edit func(*Options)
		want string // "" for none
	}{
		{"the defaults", func(*Options) {}, ""},
		{"fixed-success at a level", func(o *Options) { o.Method, o.Level = FixedSuccess, 12 }, ""},
		{"an unknown method", func(o *Options) { o.Method = "mcmc" }, `--method "mcmc": want naive, splitting, ams or fixed-success`},
		{"fixed-success without a level", func(o *Options) { o.Method = FixedSuccess }, "set --level"},
		{"fixed-success past its stages", func(o *Options) { o.Method, o.Level = FixedSuccess, MaxStages+1 }, "at most 40; --level 41"},
		{"a kill share of 1", func(o *Options) { o.Kill = 1 }, "--kill must be in (0, 1), got 1"},
		{"a negative kill share", func(o *Options) { o.Kill = -0.1 }, "--kill must be in (0, 1), got -0.1"},
		{"one success", func(o *Options) { o.Successes = 1 }, "--successes must be in [2, 1000000], got 1"},
		{"too many successes", func(o *Options) { o.Successes = MaxRuns + 1 }, "--successes must be in [2, 1000000], got 1000001"},
		{"one run", func(o *Options) { o.Runs = 1 }, "--runs must be in [2, 1000000], got 1"},
		{"one repeat", func(o *Options) { o.Repeats = 1 }, "--repeats must be in [2, 1000], got 1"},
		{"a negative level", func(o *Options) { o.Level = -1 }, "--level must be in [1, 1099511627776], got -1"},
		{"a negative window", func(o *Options) { o.Within = -time.Second }, "--within must be positive, got -1s"},
		{"a window inside the warm-up", func(o *Options) { o.Within = time.Millisecond }, "leaves no room after the warm-up"},
	}
	for _, c := range cases {
		o := ok
		c.edit(&o)
		err := Check(cfg, o)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (!errors.Is(err, ErrSetup) || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want ErrSetup saying %q", c.name, err, c.want)
		}
	}
}

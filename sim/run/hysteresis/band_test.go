package hysteresis

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/topology"
)

// branches builds synthetic samples: n intervals per branch at evenly
// spaced loads over [from, to], goodput up(x) and down(x).
func branches(from, to float64, n int, up, down func(x float64) float64) []Sample {
	var ss []Sample
	for i := range n {
		x := from + (to-from)*(float64(i)+0.5)/float64(n)
		ss = append(ss, Sample{Offered: x, Goodput: up(x), Branch: Up})
	}
	for i := n - 1; i >= 0; i-- {
		x := from + (to-from)*(float64(i)+0.5)/float64(n)
		ss = append(ss, Sample{Offered: x, Goodput: down(x), Branch: Down})
	}
	return ss
}

// healthy serves the load up to capacity c, collapsed serves nothing
// between lo and hi.
func healthy(c float64) func(float64) float64 {
	return func(x float64) float64 { return math.Min(x, c) }
}

func collapsedBetween(lo, hi, c float64) func(float64) float64 {
	return func(x float64) float64 {
		if x >= lo && x < hi {
			return 0
		}
		return math.Min(x, c)
	}
}

func TestFindBand(t *testing.T) {
	same := healthy(1000)
	cases := []struct {
		name         string
		samples      []Sample
		from, to     float64
		bins         int
		threshold    float64
		found        bool
		lo, hi       float64
		regions      int
		bistableBins int
	}{
		{name: "identical branches: no band", samples: branches(0, 1000, 1000, same, same), from: 0, to: 1000, bins: 10, threshold: 0.2},
		{name: "collapsed from 300 to 900", samples: branches(0, 1000, 1000, same, collapsedBetween(300, 900, 1000)),
			from: 0, to: 1000, bins: 10, threshold: 0.2, found: true, lo: 300, hi: 900, regions: 1, bistableBins: 6},
		// A 10 % gap is under a 20 % threshold, over a 5 % one.
		{name: "small gap under the threshold", samples: branches(0, 1000, 1000, same, func(x float64) float64 { return 0.9 * x }),
			from: 0, to: 1000, bins: 10, threshold: 0.2},
		{name: "small gap over a lower threshold", samples: branches(0, 1000, 1000, same, func(x float64) float64 { return 0.9 * x }),
			from: 0, to: 1000, bins: 10, threshold: 0.05, found: true, lo: 0, hi: 1000, regions: 1, bistableBins: 10},
		// Two regions: the widest is the band.
		{name: "two regions, the wider wins", samples: branches(0, 1000, 1000, same, func(x float64) float64 {
			if x >= 100 && x < 200 || x >= 500 && x < 800 {
				return 0
			}
			return x
		}), from: 0, to: 1000, bins: 10, threshold: 0.2, found: true, lo: 500, hi: 800, regions: 2, bistableBins: 4},
		// Equally wide regions: the lower is the band.
		{name: "two equal regions, the lower wins", samples: branches(0, 1000, 1000, same, func(x float64) float64 {
			if x >= 100 && x < 300 || x >= 600 && x < 800 {
				return 0
			}
			return x
		}), from: 0, to: 1000, bins: 10, threshold: 0.2, found: true, lo: 100, hi: 300, regions: 2, bistableBins: 4},
		// The smoothing window averages a half-collapsed window: the bin
		// [300, 400) has its down branch at 0 for half its intervals, a
		// mean gap of 175, over 20 % of 350.
		{name: "window average", samples: branches(0, 1000, 1000, same, collapsedBetween(350, 1000, 1000)),
			from: 0, to: 1000, bins: 10, threshold: 0.2, found: true, lo: 300, hi: 1000, regions: 1, bistableBins: 7},
		// A window only one branch passes through is not bistable.
		{name: "one branch only", samples: branches(0, 500, 500, same, same)[:500],
			from: 0, to: 500, bins: 5, threshold: 0.2},
		// Samples of the top hold and outside the range are left out.
		{name: "top and outside ignored", samples: append(branches(0, 1000, 1000, same, same),
			Sample{Offered: 1000, Goodput: 0, Branch: Top}, Sample{Offered: 2000, Goodput: 0, Branch: Down}, Sample{Offered: -1, Goodput: 0, Branch: Up}),
			from: 0, to: 1000, bins: 10, threshold: 0.2},
		{name: "empty range", samples: branches(0, 1000, 10, same, same), from: 5, to: 5, bins: 10, threshold: 0.2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := FindBand(c.samples, c.from, c.to, c.bins, c.threshold)
			if b.Found != c.found || len(b.Regions) != c.regions {
				t.Fatalf("found %v with %d regions %v, want %v with %d", b.Found, len(b.Regions), b.Regions, c.found, c.regions)
			}
			if c.found && (math.Abs(b.Lo-c.lo) > 1e-9 || math.Abs(b.Hi-c.hi) > 1e-9) {
				t.Errorf("band [%v, %v), want [%v, %v)", b.Lo, b.Hi, c.lo, c.hi)
			}
			n := 0
			for _, bin := range b.Bins {
				if bin.Bistable {
					n++
				}
			}
			if n != c.bistableBins {
				t.Errorf("%d bistable windows, want %d", n, c.bistableBins)
			}
		})
	}
}

// TestFindBandEdges: a load exactly at the top goes in the last window,
// and the windows tile [from, to].
func TestFindBandEdges(t *testing.T) {
	b := FindBand([]Sample{{Offered: 100, Goodput: 0, Branch: Up}, {Offered: 100, Goodput: 100, Branch: Down}}, 0, 100, 4, 0.2)
	if len(b.Bins) != 4 || b.Bins[3].UpCount != 1 || b.Bins[3].DownCount != 1 || !b.Found || b.Lo != 75 || b.Hi != 100 {
		t.Fatalf("bins %+v, band %v [%v, %v)", b.Bins, b.Found, b.Lo, b.Hi)
	}
	for k := 1; k < len(b.Bins); k++ {
		if b.Bins[k].Lo != b.Bins[k-1].Hi {
			t.Errorf("window %d starts at %v, the one before ends at %v", k, b.Bins[k].Lo, b.Bins[k-1].Hi)
		}
	}
}

// TestRampSchedule: the schedule, the branches and the exact mean
// offered load of an interval, also one that straddles a corner.
func TestRampSchedule(t *testing.T) {
	cfg := topology.Config{Clients: []topology.ClientConfig{{Name: "closed", Users: 5}, {Name: "users", Target: "api", Rate: 500}}}
	from, to := 100.0, 1100.0
	r, err := NewRamp(cfg, Options{From: &from, To: &to, Ramp: 100 * time.Second, Hold: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if r.Name != "users" || r.Duration() != 230*time.Second {
		t.Fatalf("client %q, duration %v: want users, 230s", r.Name, r.Duration())
	}
	m := r.Model()
	if c := m.Clients[1]; !c.Linear || len(c.Schedule) != 5 || c.Schedule[2].Rate != to || c.Schedule[4].At != 220*time.Second {
		t.Errorf("schedule %+v", c.Schedule)
	}
	if cfg.Clients[1].Schedule != nil {
		t.Error("Model wrote the file's client")
	}
	for _, c := range []struct {
		s, e, want float64
	}{
		{0, 1, 100},        // the first hold
		{10, 20, 150},      // the ramp up, 10 rps per second
		{105, 115, 1087.5}, // straddles the top corner: (1075+1100)/2 over 5 s, 1100 over 5 s
		{112, 118, 1100},   // the top hold
		{170, 180, 550},    // the ramp down
		{225, 230, 100},    // the last hold
	} {
		if got := r.Offered(c.s, c.e); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("Offered(%v, %v) = %v, want %v", c.s, c.e, got, c.want)
		}
	}
	for _, c := range []struct {
		t    float64
		want string
	}{{5, Up}, {109.5, Up}, {110.5, Top}, {119.5, Top}, {120.5, Down}, {229.5, Down}} {
		if got := r.Branch(c.t); got != c.want {
			t.Errorf("Branch(%v) = %s, want %s", c.t, got, c.want)
		}
	}
}

// TestNewRampErrors: what cannot be ramped wraps ErrSetup.
func TestNewRampErrors(t *testing.T) {
	cfg := topology.Config{Clients: []topology.ClientConfig{{Name: "closed", Users: 5}, {Name: "users", Rate: 500}}}
	lo, hi, huge := 600.0, 400.0, 2e9
	for _, c := range []struct {
		name string
		cfg  topology.Config
		opt  Options
	}{
		{"no open-loop client", topology.Config{Clients: cfg.Clients[:1]}, Options{}},
		{"unknown client", cfg, Options{Client: "nobody"}},
		{"closed-loop client", cfg, Options{Client: "closed"}},
		{"from above to", cfg, Options{From: &lo, To: &hi}},
		{"beyond the largest rate", cfg, Options{To: &huge}},
		{"negative ramp", cfg, Options{Ramp: -time.Second}},
		{"too many intervals", cfg, Options{Ramp: 1000 * time.Hour}},
	} {
		if _, err := NewRamp(c.cfg, c.opt); err == nil || !errors.Is(err, ErrSetup) {
			t.Errorf("%s: %v, want an ErrSetup", c.name, err)
		}
	}
}

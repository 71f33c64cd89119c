package outlier

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

const (
	sec  = time.Second
	ok   = policies.Success
	fail = policies.Error
)

type op uint8

const (
	record op = iota // Record(at, host, out) n times; want the last call's event
	tick             // Tick(at); want the events
)

// step: at instant at, do op on host with outcome out (n times), and expect
// the event (kind, host, reason, ejected-for) and the ejected hosts after.
type step struct {
	at      time.Duration
	op      op
	host    int
	out     policies.Outcome
	n       int
	want    []Event // only Host, Kind, Reason and EjectedFor are compared
	ejected []int
}

func ev(h int, k Kind, r Reason, d time.Duration) Event {
	return Event{Host: h, Kind: k, Reason: r, EjectedFor: d}
}

func runSteps(t *testing.T, cfg Config, hosts int, steps []step) *Detector {
	t.Helper()
	d, err := New(cfg, hosts, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range steps {
		var got []Event
		switch s.op {
		case record:
			for j := range max(s.n, 1) {
				e, ok := d.Record(s.at, s.host, s.out)
				if ok && j != max(s.n, 1)-1 {
					t.Fatalf("step %d: early event %+v at call %d", i, e, j)
				}
				if ok {
					got = append(got, e)
				}
			}
		case tick:
			got = d.Tick(s.at, nil)
		}
		if len(got) != len(s.want) {
			t.Fatalf("step %d at %v: events %+v, want %+v", i, s.at, got, s.want)
		}
		for k, e := range got {
			w := s.want[k]
			if e.Host != w.Host || e.Kind != w.Kind || e.Reason != w.Reason || e.EjectedFor != w.EjectedFor || e.At != s.at {
				t.Fatalf("step %d at %v: event %d = %+v, want %+v", i, s.at, k, e, w)
			}
		}
		var ej []int
		for h := range d.Hosts() {
			if d.Ejected(h) {
				ej = append(ej, h)
			}
		}
		if len(ej) != len(s.ejected) || d.EjectedCount() != len(ej) {
			t.Fatalf("step %d at %v: ejected %v (count %d), want %v", i, s.at, ej, d.EjectedCount(), s.ejected)
		}
		for k := range ej {
			if ej[k] != s.ejected[k] {
				t.Fatalf("step %d at %v: ejected %v, want %v", i, s.at, ej, s.ejected)
			}
		}
	}
	return d
}

func TestSteps(t *testing.T) {
	def := DefaultConfig()
	tests := []struct {
		name  string
		cfg   func(*Config)
		hosts int
		steps []step
	}{
		{"five consecutive failures eject", nil, 4, []step{
			{at: 1 * sec, op: record, host: 2, out: fail, n: 4},
			{at: 1 * sec, op: record, host: 2, out: fail, want: []Event{ev(2, Ejected, Consecutive5xx, 30*sec)}, ejected: []int{2}},
		}},
		{"a success resets the count", nil, 4, []step{
			{at: 1 * sec, op: record, host: 0, out: fail, n: 4},
			{at: 1 * sec, op: record, host: 0, out: ok},
			{at: 1 * sec, op: record, host: 0, out: fail, n: 4},
			{at: 1 * sec, op: record, host: 0, out: policies.Timeout, want: []Event{ev(0, Ejected, Consecutive5xx, 30*sec)}, ejected: []int{0}},
		}},
		{"local refusals neither count nor reset", nil, 4, []step{
			{at: 1 * sec, op: record, host: 1, out: fail, n: 3},
			{at: 1 * sec, op: record, host: 1, out: policies.CircuitOpen, n: 10},
			{at: 1 * sec, op: record, host: 1, out: policies.Cancelled},
			{at: 1 * sec, op: record, host: 1, out: policies.Rejected, n: 2, want: []Event{ev(1, Ejected, Consecutive5xx, 30*sec)}, ejected: []int{1}},
		}},
		{"never more than max_ejection_percent", nil, 4, []step{
			{at: 1 * sec, op: record, host: 0, out: fail, n: 5, want: []Event{ev(0, Ejected, Consecutive5xx, 30*sec)}, ejected: []int{0}},
			{at: 1 * sec, op: record, host: 1, out: fail, n: 5, want: []Event{ev(1, Ejected, Consecutive5xx, 30*sec)}, ejected: []int{0, 1}},
			{at: 1 * sec, op: record, host: 2, out: fail, n: 5, want: []Event{ev(2, Overflow, Consecutive5xx, 0)}, ejected: []int{0, 1}},
			// The count was reset by the detection: five more failures are needed.
			{at: 2 * sec, op: record, host: 2, out: fail, n: 4, ejected: []int{0, 1}},
		}},
		{"three hosts at 50 %: only one", nil, 3, []step{
			{at: 0, op: record, host: 0, out: fail, n: 5, want: []Event{ev(0, Ejected, Consecutive5xx, 30*sec)}, ejected: []int{0}},
			{at: 0, op: record, host: 1, out: fail, n: 5, want: []Event{ev(1, Overflow, Consecutive5xx, 0)}, ejected: []int{0}},
		}},
		{"a single host is never ejected at 50 %", nil, 1, []step{
			{at: 0, op: record, host: 0, out: fail, n: 5, want: []Event{ev(0, Overflow, Consecutive5xx, 0)}},
		}},
		{"always_eject_one_host", func(c *Config) { c.AlwaysEjectOneHost = true }, 1, []step{
			{at: 0, op: record, host: 0, out: fail, n: 5, want: []Event{ev(0, Ejected, Consecutive5xx, 30*sec)}, ejected: []int{0}},
		}},
		{"un-ejection waits for the sweep", nil, 4, []step{
			{at: 5 * sec, op: record, host: 3, out: fail, n: 5, want: []Event{ev(3, Ejected, Consecutive5xx, 30*sec)}, ejected: []int{3}},
			{at: 9 * sec, op: tick, ejected: []int{3}}, // not due yet: no sweep
			{at: 10 * sec, op: tick, ejected: []int{3}},
			{at: 20 * sec, op: tick, ejected: []int{3}},
			{at: 30 * sec, op: tick, ejected: []int{3}},
			// Results for an ejected host are ignored.
			{at: 31 * sec, op: record, host: 3, out: fail, n: 10, ejected: []int{3}},
			{at: 40 * sec, op: tick, want: []Event{ev(3, Unejected, EjectionTimeElapsed, 0)}},
		}},
		{"ejection time grows with the backoff and decays", func(c *Config) { c.MaxEjectionTime = 60 * sec }, 4, []step{
			{at: 0, op: record, host: 0, out: fail, n: 5, want: []Event{ev(0, Ejected, Consecutive5xx, 30*sec)}, ejected: []int{0}},
			{at: 10 * sec, op: tick, ejected: []int{0}},
			{at: 20 * sec, op: tick, ejected: []int{0}},
			{at: 30 * sec, op: tick, want: []Event{ev(0, Unejected, EjectionTimeElapsed, 0)}},
			{at: 31 * sec, op: record, host: 0, out: fail, n: 5, want: []Event{ev(0, Ejected, Consecutive5xx, 60*sec)}, ejected: []int{0}},
			{at: 40 * sec, op: tick, ejected: []int{0}},
			{at: 50 * sec, op: tick, ejected: []int{0}},
			{at: 60 * sec, op: tick, ejected: []int{0}},
			{at: 70 * sec, op: tick, ejected: []int{0}},
			{at: 80 * sec, op: tick, ejected: []int{0}},
			{at: 90 * sec, op: tick, ejected: []int{0}}, // due at 91 s
			{at: 100 * sec, op: tick, want: []Event{ev(0, Unejected, EjectionTimeElapsed, 0)}},
			// Backoff 3, capped by max_ejection_time: the third ejection is 60 s too.
			{at: 101 * sec, op: record, host: 0, out: fail, n: 5, want: []Event{ev(0, Ejected, Consecutive5xx, 60*sec)}, ejected: []int{0}},
			{at: 170 * sec, op: tick, want: []Event{ev(0, Unejected, EjectionTimeElapsed, 0)}},
			// Three clean sweeps bring the backoff from 3 to 0.
			{at: 180 * sec, op: tick},
			{at: 190 * sec, op: tick},
			{at: 200 * sec, op: tick},
			{at: 201 * sec, op: record, host: 0, out: fail, n: 5, want: []Event{ev(0, Ejected, Consecutive5xx, 30*sec)}, ejected: []int{0}},
		}},
		{"success rate ejects the low outlier", func(c *Config) { c.Consecutive5xx = 1000 }, 5, []step{
			{at: 1 * sec, op: record, host: 0, out: ok, n: 100},
			{at: 1 * sec, op: record, host: 1, out: ok, n: 100},
			{at: 1 * sec, op: record, host: 2, out: ok, n: 100},
			{at: 1 * sec, op: record, host: 3, out: ok, n: 100},
			{at: 1 * sec, op: record, host: 4, out: ok, n: 50},
			{at: 1 * sec, op: record, host: 4, out: fail, n: 50},
			// mean 90, stdev 20: threshold 90 - 1.9*20 = 52 > 50.
			{at: 10 * sec, op: tick, want: []Event{ev(4, Ejected, SuccessRate, 30*sec)}, ejected: []int{4}},
		}},
		{"success rate: two low hosts are not outliers", func(c *Config) { c.Consecutive5xx = 1000 }, 5, []step{
			{at: 1 * sec, op: record, host: 0, out: ok, n: 100},
			{at: 1 * sec, op: record, host: 1, out: ok, n: 100},
			{at: 1 * sec, op: record, host: 2, out: ok, n: 100},
			{at: 1 * sec, op: record, host: 3, out: fail, n: 50},
			{at: 1 * sec, op: record, host: 3, out: ok, n: 50},
			{at: 1 * sec, op: record, host: 4, out: fail, n: 50},
			{at: 1 * sec, op: record, host: 4, out: ok, n: 50},
			// mean 80, stdev 24.5: threshold 33.5 < 50.
			{at: 10 * sec, op: tick},
		}},
		{"success rate needs volume in the same interval", func(c *Config) { c.Consecutive5xx = 1000 }, 5, []step{
			{at: 1 * sec, op: record, host: 0, out: ok, n: 100},
			{at: 1 * sec, op: record, host: 1, out: ok, n: 100},
			{at: 1 * sec, op: record, host: 2, out: ok, n: 100},
			{at: 1 * sec, op: record, host: 3, out: ok, n: 100},
			{at: 1 * sec, op: record, host: 4, out: fail, n: 99},
			{at: 10 * sec, op: tick}, // host 4 has 99 calls: only 4 hosts qualify
			{at: 11 * sec, op: record, host: 4, out: fail, n: 1},
			{at: 20 * sec, op: tick}, // the counts were reset by the sweep
		}},
		// Envoy lowers the backoff only after success-rate detection, and
		// only for a host that has been back for a whole interval
		// (DetectorImpl::onIntervalTimer in Envoy's
		// source/common/upstream/outlier_detection_impl.cc). Host 0 comes
		// back at 40 s with backoff 1; the 50 s sweep ejects it again by
		// success rate (mean 90, stdev 20: threshold 52 > 50) before any
		// decrement, so the backoff becomes 2: 60 s, back at the 110 s
		// sweep. Lowering it first (1 -> 0 -> 1) gave 30 s, back at 80 s.
		{"success-rate re-ejection keeps the backoff", func(c *Config) {
			c.MaxEjectionPercent, c.SuccessRateRequestVolume = 100, 10
		}, 5, []step{
			{at: 1 * sec, op: record, host: 0, out: fail, n: 5, want: []Event{ev(0, Ejected, Consecutive5xx, 30*sec)}, ejected: []int{0}},
			{at: 10 * sec, op: tick, ejected: []int{0}},
			{at: 20 * sec, op: tick, ejected: []int{0}},
			{at: 30 * sec, op: tick, ejected: []int{0}},
			{at: 40 * sec, op: tick, want: []Event{ev(0, Unejected, EjectionTimeElapsed, 0)}},
			{at: 41 * sec, op: record, host: 0, out: fail, n: 4},
			{at: 42 * sec, op: record, host: 0, out: ok, n: 5},
			{at: 43 * sec, op: record, host: 0, out: fail},
			{at: 44 * sec, op: record, host: 1, out: ok, n: 10},
			{at: 44 * sec, op: record, host: 2, out: ok, n: 10},
			{at: 44 * sec, op: record, host: 3, out: ok, n: 10},
			{at: 44 * sec, op: record, host: 4, out: ok, n: 10},
			{at: 50 * sec, op: tick, want: []Event{ev(0, Ejected, SuccessRate, 60*sec)}, ejected: []int{0}},
			{at: 60 * sec, op: tick, ejected: []int{0}},
			{at: 70 * sec, op: tick, ejected: []int{0}},
			{at: 80 * sec, op: tick, ejected: []int{0}},
			{at: 90 * sec, op: tick, ejected: []int{0}},
			{at: 100 * sec, op: tick, ejected: []int{0}},
			{at: 110 * sec, op: tick, want: []Event{ev(0, Unejected, EjectionTimeElapsed, 0)}},
		}},
		{"enforcing 0 disables consecutive 5xx", func(c *Config) { c.EnforcingConsecutive5xx = 0 }, 4, []step{
			{at: 0, op: record, host: 0, out: fail, n: 50},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := def
			if tt.cfg != nil {
				tt.cfg(&c)
			}
			runSteps(t, c, tt.hosts, tt.steps)
		})
	}
}

func TestNextUnejectAt(t *testing.T) {
	d, _ := New(DefaultConfig(), 4, 3*sec) // sweeps at 13 s, 23 s, ...
	if _, ok := d.NextUnejectAt(); ok {
		t.Fatal("NextUnejectAt with nothing ejected")
	}
	for range 5 {
		d.Record(5*sec, 1, fail)
	}
	// Due at 35 s; the first sweep at or after it is 43 s.
	if at, ok := d.NextUnejectAt(); !ok || at != 43*sec {
		t.Fatalf("NextUnejectAt = %v, %v; want 43s", at, ok)
	}
	if d.NextTickAt() != 13*sec {
		t.Fatalf("NextTickAt = %v", d.NextTickAt())
	}
	// A late sweep re-arms from its own instant.
	d.Tick(15*sec, nil)
	if d.NextTickAt() != 25*sec {
		t.Fatalf("NextTickAt after a late sweep = %v, want 25s", d.NextTickAt())
	}
	if at, _ := d.NextUnejectAt(); at != 35*sec {
		t.Fatalf("NextUnejectAt = %v, want 35s", at)
	}
	d.Tick(25*sec, nil)
	if evs := d.Tick(35*sec, nil); len(evs) != 1 || evs[0].Kind != Unejected {
		t.Fatalf("sweep at 35s: %+v", evs)
	}
	d.Record(36*sec, 0, fail) // untouched host: no ejection
	if at, ok := d.NextUnejectAt(); ok {
		t.Fatalf("NextUnejectAt = %v after un-ejection", at)
	}
}

func TestEnforcingDraws(t *testing.T) {
	c := DefaultConfig()
	c.EnforcingConsecutive5xx = 50
	c.MaxEjectionPercent = 100
	if _, err := New(c, 10, 0); !errors.Is(err, ErrInvalidConfig) {
		t.Fatalf("partial enforcement without Rand: %v", err)
	}
	c.Rand = rand.New(rand.NewPCG(1, 2))
	d, err := New(c, 1000, 0)
	if err != nil {
		t.Fatal(err)
	}
	ejected := 0
	for h := range 1000 {
		for range 5 {
			if e, ok := d.Record(0, h, fail); ok && e.Kind == Ejected {
				ejected++
			}
		}
	}
	// Binomial(1000, 0.5): mean 500, sd 15.8; 5 sd either way.
	if ejected < 420 || ejected > 580 {
		t.Fatalf("%d of 1000 ejected with enforcing 50 %%", ejected)
	}
}

func TestConfigValidate(t *testing.T) {
	if _, err := New(DefaultConfig(), 1, 0); err != nil {
		t.Fatal(err)
	}
	bad := []func(*Config){
		func(c *Config) { c.Consecutive5xx = 0 },
		func(c *Config) { c.Interval = 0 },
		func(c *Config) { c.BaseEjectionTime = 0 },
		func(c *Config) { c.MaxEjectionTime = c.BaseEjectionTime - 1 },
		func(c *Config) { c.MaxEjectionPercent = 101 },
		func(c *Config) { c.EnforcingConsecutive5xx = -1 },
		func(c *Config) { c.EnforcingSuccessRate = 200 },
		func(c *Config) { c.SuccessRateMinimumHosts = 0 },
		func(c *Config) { c.SuccessRateRequestVolume = 0 },
		func(c *Config) { c.SuccessRateStdevFactor = -1 },
		func(c *Config) { c.EnforcingSuccessRate = 1 },
	}
	for i, f := range bad {
		c := DefaultConfig()
		f(&c)
		if _, err := New(c, 4, 0); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("case %d: %v", i, err)
		}
	}
	for _, n := range []int{0, maxHosts + 1} {
		if _, err := New(DefaultConfig(), n, 0); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("%d hosts: %v", n, err)
		}
	}
}

func TestEjectionTime(t *testing.T) {
	c := DefaultConfig()
	for b, want := range []time.Duration{0, 30, 60, 90, 120, 150, 180, 210, 240, 270, 300, 300, 300} {
		if got := c.ejectionTime(b); got != want*sec {
			t.Errorf("ejectionTime(%d) = %v, want %v", b, got, want*sec)
		}
	}
}

func TestStrings(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Ejected.String(), "ejected"}, {Unejected.String(), "unejected"}, {Overflow.String(), "overflow"},
		{Kind(0).String(), "unknown"}, {Consecutive5xx.String(), "consecutive_5xx"},
		{SuccessRate.String(), "success_rate"}, {EjectionTimeElapsed.String(), "ejection_time_elapsed"},
		{Reason(0).String(), "unknown"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

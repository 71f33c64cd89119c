package deadline

import (
	"errors"
	"math"
	"testing"
	"time"
)

const ms = time.Millisecond

// TestRequestSteps follows the source's 800 ms checkout request through
// made-up instants: at each row, the remaining time, whether it expired, and
// the slices a critical (pricing) and a non-critical (recommendations) call
// would get under the default policy (reserve 50 ms, cap 80 ms).
func TestRequestSteps(t *testing.T) {
	p, err := New(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	d := After(0, 800*ms)
	steps := []struct {
		at         time.Duration
		remaining  time.Duration
		expired    bool
		crit       time.Duration
		critOK     bool
		nonCrit    time.Duration
		nonCritOK  bool
		childAtCrt time.Duration // expiry of the propagated critical deadline
	}{
		{0, 800 * ms, false, 750 * ms, true, 80 * ms, true, 750 * ms},
		{100 * ms, 700 * ms, false, 650 * ms, true, 80 * ms, true, 750 * ms},
		{700 * ms, 100 * ms, false, 50 * ms, true, 50 * ms, true, 750 * ms},
		{720 * ms, 80 * ms, false, 30 * ms, true, 30 * ms, true, 750 * ms},
		{750 * ms, 50 * ms, false, 0, false, 0, false, 750 * ms}, // only the reserve left
		{799 * ms, 1 * ms, false, 0, false, 0, false, 799 * ms},
		{800 * ms, 0, true, 0, false, 0, false, 800 * ms},
		{900 * ms, 0, true, 0, false, 0, false, 900 * ms},
	}
	for _, s := range steps {
		if got := d.Remaining(s.at); got != s.remaining {
			t.Errorf("at %v: Remaining = %v, want %v", s.at, got, s.remaining)
		}
		if got := d.Expired(s.at); got != s.expired {
			t.Errorf("at %v: Expired = %v, want %v", s.at, got, s.expired)
		}
		if sl, ok := p.Slice(d, s.at, Critical); sl != s.crit || ok != s.critOK {
			t.Errorf("at %v: critical slice %v %v, want %v %v", s.at, sl, ok, s.crit, s.critOK)
		}
		if sl, ok := p.Slice(d, s.at, NonCritical); sl != s.nonCrit || ok != s.nonCritOK {
			t.Errorf("at %v: non-critical slice %v %v, want %v %v", s.at, sl, ok, s.nonCrit, s.nonCritOK)
		}
		child, ok := p.Propagate(d, s.at, Critical)
		if exp, set := child.Expiry(); !set || exp != s.childAtCrt || ok != s.critOK {
			t.Errorf("at %v: propagated %v %v %v, want %v %v", s.at, exp, set, ok, s.childAtCrt, s.critOK)
		}
	}
}

// TestChainPropagation sends a request down three hops, each keeping its
// 50 ms reserve and spending 30 ms before calling the next: the leaf sees
// what is left of the user's 800 ms.
func TestChainPropagation(t *testing.T) {
	p, _ := New(DefaultConfig())
	d, now := After(0, 800*ms), time.Duration(0)
	want := []time.Duration{750 * ms, 700 * ms, 650 * ms}
	for hop, w := range want {
		now += 30 * ms
		child, ok := p.Propagate(d, now, Critical)
		if exp, _ := child.Expiry(); !ok || exp != w {
			t.Fatalf("hop %d: child deadline %v (ok %v), want %v", hop, exp, ok, w)
		}
		d = child
	}
	if got := d.Remaining(now); got != 650*ms-90*ms {
		t.Errorf("leaf remaining %v", got)
	}
}

func TestNoDeadline(t *testing.T) {
	p, _ := New(DefaultConfig())
	var d Deadline
	if d.IsSet() || d.Expired(1<<60) || d.Remaining(5) != Forever || d.Instant() != 0 {
		t.Errorf("zero Deadline: %+v", d)
	}
	if _, set := d.Expiry(); set {
		t.Error("Expiry reported a deadline")
	}
	if s, ok := p.Slice(d, 0, Critical); s != Forever || !ok {
		t.Errorf("critical slice without deadline = %v %v", s, ok)
	}
	if s, ok := p.Slice(d, 0, NonCritical); s != 80*ms || !ok {
		t.Errorf("non-critical slice without deadline = %v %v", s, ok)
	}
	if c, ok := p.Propagate(d, 0, Critical); c.IsSet() || !ok {
		t.Errorf("critical child of no deadline = %+v", c)
	}
	if c, ok := p.Propagate(d, 10*ms, NonCritical); !ok || c.Instant() != 90*ms {
		t.Errorf("non-critical child of no deadline expires %v, want 90ms", c.Instant())
	}
}

func TestDeadlineValues(t *testing.T) {
	tests := []struct {
		name string
		got  Deadline
		want Deadline
	}{
		{"After adds", After(10*ms, 5*ms), At(15 * ms)},
		{"After negative budget", After(10*ms, -5*ms), At(10 * ms)},
		{"After saturates", After(Forever-1, 10), At(Forever)},
		{"Earlier picks first", At(5).Earlier(At(3)), At(3)},
		{"Earlier keeps first", At(3).Earlier(At(5)), At(3)},
		{"Earlier of none", Deadline{}.Earlier(At(3)), At(3)},
		{"Earlier with none", At(3).Earlier(Deadline{}), At(3)},
		{"WithTimeout shortens", At(800*ms).WithTimeout(100*ms, 200*ms), At(300 * ms)},
		{"WithTimeout keeps", At(800*ms).WithTimeout(700*ms, 200*ms), At(800 * ms)},
		{"WithTimeout on none", Deadline{}.WithTimeout(0, time.Second), At(time.Second)},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, tt.got, tt.want)
		}
	}
	if At(0).Instant() != 1 || At(-5).Instant() != 1 || At(7).Instant() != 7 {
		t.Error("Instant must map expiries at or before the origin to 1 ns")
	}
	if got := At(Forever).Remaining(-10); got != Forever {
		t.Errorf("Remaining overflow: %v", got)
	}
}

func TestMinSlice(t *testing.T) {
	p, err := New(Config{Reserve: 10 * ms, NonCriticalCap: 80 * ms, MinSlice: 20 * ms})
	if err != nil {
		t.Fatal(err)
	}
	d := At(100 * ms)
	tests := []struct {
		at time.Duration
		ok bool
	}{
		{60 * ms, true},  // slice 30 ms
		{70 * ms, false}, // slice 20 ms: not above MinSlice
		{71 * ms, false},
	}
	for _, tt := range tests {
		if _, ok := p.Slice(d, tt.at, Critical); ok != tt.ok {
			t.Errorf("at %v: ok %v, want %v", tt.at, ok, tt.ok)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	bad := []Config{
		{Reserve: -1, NonCriticalCap: 80 * ms},
		{Reserve: 0, NonCriticalCap: 80 * ms, MinSlice: -1},
		{Reserve: 50 * ms, NonCriticalCap: 0},
		{Reserve: 50 * ms, NonCriticalCap: 20 * ms, MinSlice: 20 * ms},
	}
	for _, c := range bad {
		if _, err := New(c); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("New(%+v) error = %v, want ErrInvalidConfig", c, err)
		}
	}
	if _, err := New(Config{NonCriticalCap: 1}); err != nil {
		t.Errorf("minimal config: %v", err)
	}
	if Critical.String() != "critical" || NonCritical.String() != "non_critical" || Class(9).String() != "Class(9)" {
		t.Error("class names changed")
	}
}

// TestAfterMatchesSaturation checks After, which detects the overflow by
// the wrap of now+budget, against the former test of now and Forever-now
// on instants and budgets around 0 and the int64 limits.
func TestAfterMatchesSaturation(t *testing.T) {
	ref := func(now, budget time.Duration) Deadline {
		budget = max(budget, 0)
		if now > 0 && budget > Forever-now {
			return At(Forever)
		}
		return At(now + budget)
	}
	vals := []time.Duration{math.MinInt64, math.MinInt64 + 1, -1e18, -5, -1, 0, 1, 5, 1e9, 1e18, Forever - 1, Forever}
	for _, now := range vals {
		for _, budget := range vals {
			if got, want := After(now, budget), ref(now, budget); got != want {
				t.Errorf("After(%d, %d) = %+v, want %+v", now, budget, got, want)
			}
		}
	}
}

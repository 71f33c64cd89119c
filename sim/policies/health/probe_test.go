package health

import (
	"errors"
	"testing"
	"time"
)

const (
	ms  = time.Millisecond
	sec = time.Second
)

type op uint8

const (
	observe op = iota // Observe(at, pass, took)
	restart           // Restarted(at)
)

// step: at instant at, do op (with pass and took for observe), and expect a
// transition to wantTo (if wantOK) stamped wantAt, the state after, and the
// next probe instant (wantNext; -1 for none).
type step struct {
	at       time.Duration
	op       op
	pass     bool
	took     time.Duration
	wantOK   bool
	wantTo   State
	wantAt   time.Duration
	state    State
	wantNext time.Duration
}

func runSteps(t *testing.T, p *Probe, steps []step) {
	t.Helper()
	for i, s := range steps {
		var tr Transition
		var ok bool
		switch s.op {
		case observe:
			tr, ok = p.Observe(s.at, s.pass, s.took)
		case restart:
			tr, ok = p.Restarted(s.at)
		}
		if ok != s.wantOK || (ok && (tr.To != s.wantTo || tr.At != s.wantAt || tr.Kind != p.Kind())) {
			t.Fatalf("step %d at %v: transition %+v, %v; want to %v at %v, %v", i, s.at, tr, ok, s.wantTo, s.wantAt, s.wantOK)
		}
		if p.State() != s.state {
			t.Fatalf("step %d at %v: state %v, want %v", i, s.at, p.State(), s.state)
		}
		next, has := p.NextProbeAt()
		if !has {
			next = -1
		}
		if next != s.wantNext {
			t.Fatalf("step %d at %v: next probe %v, want %v", i, s.at, next, s.wantNext)
		}
	}
}

func TestReadinessSteps(t *testing.T) {
	tests := []struct {
		name  string
		cfg   func(*Config)
		steps []step
	}{
		{"starts unready; one pass makes it ready", nil, []step{
			{at: 0, op: observe, pass: true, took: 5 * ms, wantOK: true, wantTo: Ready, wantAt: 5 * ms, state: Ready, wantNext: 10 * sec},
			{at: 10 * sec, op: observe, pass: true, took: 5 * ms, state: Ready, wantNext: 20 * sec},
		}},
		{"three failures in a row make it unready", nil, []step{
			{at: 0, op: observe, pass: true, wantOK: true, wantTo: Ready, state: Ready, wantNext: 10 * sec},
			{at: 10 * sec, op: observe, pass: false, state: Ready, wantNext: 20 * sec},
			{at: 20 * sec, op: observe, pass: false, state: Ready, wantNext: 30 * sec},
			{at: 30 * sec, op: observe, pass: false, took: 2 * ms, wantOK: true, wantTo: Unready, wantAt: 30*sec + 2*ms, state: Unready, wantNext: 40 * sec},
			{at: 40 * sec, op: observe, pass: false, state: Unready, wantNext: 50 * sec},
			{at: 50 * sec, op: observe, pass: true, wantOK: true, wantTo: Ready, wantAt: 50 * sec, state: Ready, wantNext: 60 * sec},
		}},
		{"a pass resets the failure count", nil, []step{
			{at: 0, op: observe, pass: true, wantOK: true, wantTo: Ready, state: Ready, wantNext: 10 * sec},
			{at: 10 * sec, op: observe, pass: false, state: Ready, wantNext: 20 * sec},
			{at: 20 * sec, op: observe, pass: false, state: Ready, wantNext: 30 * sec},
			{at: 30 * sec, op: observe, pass: true, state: Ready, wantNext: 40 * sec},
			{at: 40 * sec, op: observe, pass: false, state: Ready, wantNext: 50 * sec},
			{at: 50 * sec, op: observe, pass: false, state: Ready, wantNext: 60 * sec},
		}},
		// The kubelet's timeout fires at timeoutSeconds: a check that has not
		// answered strictly before it failed. So 1 s - 1 ns passes, and
		// exactly 1 s is the first of the three failures below.
		{"a probe as slow as the timeout fails", nil, []step{
			{at: 0, op: observe, pass: true, took: 1*sec - 1, wantOK: true, wantTo: Ready, wantAt: 1*sec - 1, state: Ready, wantNext: 10 * sec},
			{at: 10 * sec, op: observe, pass: true, took: 1 * sec, state: Ready, wantNext: 20 * sec},
			{at: 20 * sec, op: observe, pass: true, took: 5 * sec, state: Ready, wantNext: 30 * sec},
			// The verdict is known when the timeout fires, not when the check ends.
			{at: 30 * sec, op: observe, pass: true, took: time.Hour, wantOK: true, wantTo: Unready, wantAt: 31 * sec, state: Unready, wantNext: 40 * sec},
		}},
		{"success threshold above one", func(c *Config) { c.SuccessThreshold = 2 }, []step{
			{at: 0, op: observe, pass: true, state: Unready, wantNext: 10 * sec},
			{at: 10 * sec, op: observe, pass: false, state: Unready, wantNext: 20 * sec},
			{at: 20 * sec, op: observe, pass: true, state: Unready, wantNext: 30 * sec},
			{at: 30 * sec, op: observe, pass: true, wantOK: true, wantTo: Ready, wantAt: 30 * sec, state: Ready, wantNext: 40 * sec},
		}},
		{"initial delay and restart", func(c *Config) { c.InitialDelay = 15 * sec }, []step{
			{at: 15 * sec, op: observe, pass: true, wantOK: true, wantTo: Ready, wantAt: 15 * sec, state: Ready, wantNext: 25 * sec},
			{at: 100 * sec, op: restart, wantOK: true, wantTo: Unready, wantAt: 100 * sec, state: Unready, wantNext: 115 * sec},
			{at: 101 * sec, op: restart, state: Unready, wantNext: 116 * sec},
		}},
		{"a timeout longer than the period delays the next probe", func(c *Config) { c.Timeout = 15 * sec }, []step{
			{at: 0, op: observe, pass: true, took: 12 * sec, wantOK: true, wantTo: Ready, wantAt: 12 * sec, state: Ready, wantNext: 12 * sec},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := DefaultConfig()
			if tt.cfg != nil {
				tt.cfg(&c)
			}
			p, err := NewReadiness(c, 0)
			if err != nil {
				t.Fatal(err)
			}
			if next, _ := p.NextProbeAt(); next != c.InitialDelay || p.State() != Unready || p.Ready() {
				t.Fatalf("new readiness probe: next %v state %v", next, p.State())
			}
			runSteps(t, p, tt.steps)
		})
	}
}

func TestLivenessSteps(t *testing.T) {
	p, err := NewLiveness(DefaultConfig(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Ready() || p.State() != Live {
		t.Fatal("a liveness probe starts live")
	}
	runSteps(t, p, []step{
		{at: 0, op: observe, pass: false, state: Live, wantNext: 10 * sec},
		{at: 10 * sec, op: observe, pass: false, state: Live, wantNext: 20 * sec},
		{at: 20 * sec, op: observe, pass: false, took: 3 * ms, wantOK: true, wantTo: Restarting, wantAt: 20*sec + 3*ms, state: Restarting, wantNext: -1},
		// No probe while restarting: a stray result is ignored.
		{at: 30 * sec, op: observe, pass: true, state: Restarting, wantNext: -1},
		{at: 45 * sec, op: restart, wantOK: true, wantTo: Live, wantAt: 45 * sec, state: Live, wantNext: 45 * sec},
		{at: 45 * sec, op: observe, pass: false, state: Live, wantNext: 55 * sec},
		{at: 55 * sec, op: observe, pass: true, state: Live, wantNext: 65 * sec},
		{at: 65 * sec, op: observe, pass: false, state: Live, wantNext: 75 * sec},
		{at: 75 * sec, op: observe, pass: false, state: Live, wantNext: 85 * sec},
		{at: 85 * sec, op: observe, pass: false, wantOK: true, wantTo: Restarting, wantAt: 85 * sec, state: Restarting, wantNext: -1},
	})
}

func TestChecks(t *testing.T) {
	c, err := NewChecks("self", "recommendations", "db")
	if err != nil {
		t.Fatal(err)
	}
	if !c.Passed() || c.Len() != 3 || c.Name(1) != "recommendations" {
		t.Fatal("new checks should all pass")
	}
	if _, ok := c.FirstFailing(); ok {
		t.Fatal("FirstFailing with every check passing")
	}
	steps := []struct {
		name  string
		pass  bool
		want  bool
		first string
	}{
		{"recommendations", false, false, "recommendations"},
		{"db", false, false, "recommendations"},
		{"recommendations", false, false, "recommendations"}, // idempotent
		{"recommendations", true, false, "db"},
		{"db", true, true, ""},
		{"self", false, false, "self"},
		{"self", true, true, ""},
	}
	for i, s := range steps {
		if !c.SetByName(s.name, s.pass) {
			t.Fatalf("step %d: unknown %q", i, s.name)
		}
		first, _ := c.FirstFailing()
		if c.Passed() != s.want || first != s.first {
			t.Fatalf("step %d: Passed %v first failing %q; want %v, %q", i, c.Passed(), first, s.want, s.first)
		}
	}
	if c.SetByName("nope", false) {
		t.Fatal("SetByName accepted an unknown check")
	}
	if i, ok := c.Index("db"); !ok || i != 2 || !c.Passing(i) {
		t.Fatal("Index(db)")
	}
	for _, bad := range [][]string{nil, {""}, {"a", "b", "a"}} {
		if _, err := NewChecks(bad...); !errors.Is(err, ErrBadCheckName) {
			t.Errorf("NewChecks(%q) error %v", bad, err)
		}
	}
}

// TestReadinessTrap models the trap of «Устойчивость: circuit breaker,
// retry, bulkhead, backpressure, деградация», section 11: three instances of
// A whose readiness includes the non-critical dependency B. When B goes
// down, every instance becomes unready within one failure window and the
// balancer has nothing left; with the correct probe, all stay ready.
func TestReadinessTrap(t *testing.T) {
	cfg := DefaultConfig()
	for _, tc := range []struct {
		checks    []string
		wantReady int
	}{
		{[]string{"self", "B"}, 0}, // the trap
		{[]string{"self"}, 3},      // the correct probe
	} {
		var probes []*Probe
		var checks []*Checks
		for i := range 3 {
			p, _ := NewReadiness(cfg, time.Duration(i)*sec) // staggered starts
			c, _ := NewChecks(tc.checks...)
			probes, checks = append(probes, p), append(checks, c)
		}
		for now := time.Duration(0); now <= 120*sec; now += sec {
			bDown := now >= 30*sec
			for i, p := range probes {
				if next, _ := p.NextProbeAt(); next != now {
					continue
				}
				checks[i].SetByName("B", !bDown)
				p.Observe(now, checks[i].Passed(), 5*ms)
			}
		}
		ready := 0
		for _, p := range probes {
			if p.Ready() {
				ready++
			}
		}
		if ready != tc.wantReady {
			t.Errorf("readiness %v: %d instances ready, want %d", tc.checks, ready, tc.wantReady)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	bad := []func(*Config){
		func(c *Config) { c.InitialDelay = -1 },
		func(c *Config) { c.Period = 0 },
		func(c *Config) { c.Timeout = 0 },
		func(c *Config) { c.SuccessThreshold = 0 },
		func(c *Config) { c.FailureThreshold = 0 },
	}
	for i, f := range bad {
		c := DefaultConfig()
		f(&c)
		if _, err := NewReadiness(c, 0); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("readiness case %d: %v", i, err)
		}
		if _, err := NewLiveness(c, 0); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("liveness case %d: %v", i, err)
		}
	}
	c := DefaultConfig()
	c.SuccessThreshold = 2
	if _, err := NewLiveness(c, 0); !errors.Is(err, ErrInvalidConfig) {
		t.Errorf("liveness with success threshold 2: %v", err)
	}
}

func TestStrings(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Readiness.String(), "readiness"}, {Liveness.String(), "liveness"}, {Kind(9).String(), "unknown"},
		{Unready.String(), "unready"}, {Ready.String(), "ready"}, {Live.String(), "live"},
		{Restarting.String(), "restarting"}, {State(9).String(), "unknown"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

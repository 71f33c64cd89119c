package breaker

import (
	"errors"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

const (
	ok   = policies.Success
	fail = policies.Error
	ms   = time.Millisecond
	sec  = time.Second
)

// testConfig is a small breaker for step tables: window 10, decide from 4
// calls, open at 50 % failures or 50 % slow calls (slow: > 100 ms), 2
// probes, pause 1 s doubling up to 4 s.
func testConfig() Config {
	return Config{
		SlidingWindowSize:                     10,
		MinimumNumberOfCalls:                  4,
		FailureRateThreshold:                  50,
		SlowCallRateThreshold:                 50,
		SlowCallDurationThreshold:             100 * ms,
		PermittedNumberOfCallsInHalfOpenState: 2,
		WaitDurationInOpenState:               1 * sec,
		MaxWaitDurationInOpenState:            4 * sec,
	}
}

type op uint8

const (
	call    op = iota // Allow, then Record at once, n times; want the last Record's transition
	allow             // Allow once, keep the permit
	record            // Record the oldest kept permit
	state             // State(at)
	refresh           // Refresh(at)
	probeAt           // NextProbeAt() == (wantAt, wantOK)
	force             // Force(at, mode)
)

var opNames = [...]string{"call", "allow", "record", "state", "refresh", "probeAt", "force"}

type step struct {
	at      time.Duration
	op      op
	out     policies.Outcome
	lat     time.Duration
	n       int   // repetitions for call (default 1)
	wantOK  bool  // allow: admitted; call/record/refresh: a transition happened; probeAt: ok
	wantTo  State // the transition's To, or the state for op state
	wantWhy Reason
	wantAt  time.Duration // probeAt
	mode    Mode          // force
}

func run(t *testing.T, cfg Config, steps []step) *Breaker {
	t.Helper()
	b, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var kept []Permit
	for i, s := range steps {
		var tr Transition
		var got bool
		switch s.op {
		case call:
			n := max(s.n, 1)
			for j := range n {
				p, admitted := b.Allow(s.at)
				if !admitted {
					t.Fatalf("step %d (%s at %v): call %d refused in state %v", i, opNames[s.op], s.at, j, b.State(s.at))
				}
				tr, got = b.Record(s.at, p, s.out, s.lat)
				if got && j != n-1 {
					t.Fatalf("step %d: transition %+v at call %d of %d", i, tr, j, n)
				}
			}
		case allow:
			p, admitted := b.Allow(s.at)
			if admitted != s.wantOK {
				t.Fatalf("step %d (allow at %v): admitted %v, want %v", i, s.at, admitted, s.wantOK)
			}
			if admitted {
				kept = append(kept, p)
			}
			continue
		case record:
			p := kept[0]
			kept = kept[1:]
			tr, got = b.Record(s.at, p, s.out, s.lat)
		case state:
			if st := b.State(s.at); st != s.wantTo {
				t.Fatalf("step %d (state at %v) = %v, want %v", i, s.at, st, s.wantTo)
			}
			continue
		case refresh:
			tr, got = b.Refresh(s.at)
		case force:
			tr, got = b.Force(s.at, s.mode)
		case probeAt:
			at, okk := b.NextProbeAt()
			if at != s.wantAt || okk != s.wantOK {
				t.Fatalf("step %d NextProbeAt() = %v, %v; want %v, %v", i, at, okk, s.wantAt, s.wantOK)
			}
			continue
		}
		if got != s.wantOK {
			t.Fatalf("step %d (%s at %v): transition %v (%+v), want %v", i, opNames[s.op], s.at, got, tr, s.wantOK)
		}
		if got && (tr.To != s.wantTo || tr.Reason != s.wantWhy || tr.At != s.at) {
			t.Fatalf("step %d (%s at %v): transition %+v, want to %v because %v", i, opNames[s.op], s.at, tr, s.wantTo, s.wantWhy)
		}
	}
	return b
}

func TestSteps(t *testing.T) {
	tests := []struct {
		name  string
		cfg   func(*Config)
		steps []step
	}{
		{"no decision before the minimum number of calls", nil, []step{
			{at: 0, op: call, out: fail, n: 3},
			{at: 1, op: state, wantTo: Closed},
			{at: 2, op: call, out: fail, wantOK: true, wantTo: Open, wantWhy: FailureRate},
		}},
		{"opens at exactly the failure-rate threshold", nil, []step{
			{at: 0, op: call, out: ok, n: 2},
			{at: 1, op: call, out: fail},
			{at: 2, op: call, out: fail, wantOK: true, wantTo: Open, wantWhy: FailureRate},
		}},
		{"stays closed just below the threshold", nil, []step{
			{at: 0, op: call, out: ok, n: 6},
			{at: 1, op: call, out: fail, n: 4},
			{at: 2, op: state, wantTo: Closed},
			// The 11th call pushes the oldest success out: 5 of 10 failed.
			{at: 3, op: call, out: fail, wantOK: true, wantTo: Open, wantWhy: FailureRate},
		}},
		{"open refuses until the pause ends, then half-open", nil, []step{
			{at: 0, op: call, out: fail, n: 4, wantOK: true, wantTo: Open, wantWhy: FailureRate},
			{at: 0, op: probeAt, wantAt: 1 * sec, wantOK: true},
			{at: 999 * ms, op: allow, wantOK: false},
			{at: 999 * ms, op: state, wantTo: Open},
			{at: 1 * sec, op: allow, wantOK: true},
			{at: 1 * sec, op: state, wantTo: HalfOpen},
			{at: 1 * sec, op: probeAt, wantOK: false},
		}},
		{"refresh returns the open to half-open transition", nil, []step{
			{at: 0, op: call, out: fail, n: 4, wantOK: true, wantTo: Open, wantWhy: FailureRate},
			{at: 500 * ms, op: refresh, wantOK: false},
			{at: 1 * sec, op: refresh, wantOK: true, wantTo: HalfOpen, wantWhy: PauseElapsed},
			{at: 1 * sec, op: refresh, wantOK: false},
		}},
		{"half-open admits the probe quota only; all succeed closes", nil, []step{
			{at: 0, op: call, out: fail, n: 4, wantOK: true, wantTo: Open, wantWhy: FailureRate},
			{at: 2 * sec, op: allow, wantOK: true},
			{at: 2 * sec, op: allow, wantOK: true},
			{at: 2 * sec, op: allow, wantOK: false},
			{at: 2100 * ms, op: record, out: ok, lat: 10 * ms},
			{at: 2100 * ms, op: allow, wantOK: false},
			{at: 2200 * ms, op: record, out: ok, lat: 10 * ms, wantOK: true, wantTo: Closed, wantWhy: ProbesSucceeded},
			{at: 2200 * ms, op: allow, wantOK: true},
		}},
		{"one failed probe re-opens with a doubled pause", nil, []step{
			{at: 0, op: call, out: fail, n: 4, wantOK: true, wantTo: Open, wantWhy: FailureRate},
			{at: 1 * sec, op: allow, wantOK: true},
			{at: 1 * sec, op: allow, wantOK: true},
			{at: 1100 * ms, op: record, out: ok},
			{at: 1200 * ms, op: record, out: policies.Timeout, wantOK: true, wantTo: Open, wantWhy: ProbeFailed},
			{at: 1200 * ms, op: probeAt, wantAt: 3200 * ms, wantOK: true},
			{at: 3200 * ms, op: allow, wantOK: true},
			{at: 3200 * ms, op: record, out: policies.Rejected, wantOK: true, wantTo: Open, wantWhy: ProbeFailed},
			{at: 3200 * ms, op: probeAt, wantAt: 7200 * ms, wantOK: true},
			{at: 7200 * ms, op: allow, wantOK: true},
			{at: 7200 * ms, op: record, out: fail, wantOK: true, wantTo: Open, wantWhy: ProbeFailed},
			// Capped at MaxWaitDurationInOpenState = 4 s.
			{at: 7200 * ms, op: probeAt, wantAt: 11200 * ms, wantOK: true},
		}},
		{"closing resets the pause growth", nil, []step{
			{at: 0, op: call, out: fail, n: 4, wantOK: true, wantTo: Open, wantWhy: FailureRate},
			{at: 1 * sec, op: call, out: fail, wantOK: true, wantTo: Open, wantWhy: ProbeFailed},
			{at: 3 * sec, op: call, out: ok},
			{at: 3 * sec, op: call, out: ok, wantOK: true, wantTo: Closed, wantWhy: ProbesSucceeded},
			// The window was cleared: three failures are below the minimum.
			{at: 4 * sec, op: call, out: fail, n: 3},
			{at: 4 * sec, op: state, wantTo: Closed},
			{at: 4 * sec, op: call, out: fail, wantOK: true, wantTo: Open, wantWhy: FailureRate},
			{at: 4 * sec, op: probeAt, wantAt: 5 * sec, wantOK: true},
		}},
		{"slow successes trip on the slow-call rate", nil, []step{
			{at: 0, op: call, out: ok, lat: 100 * ms, n: 2}, // exactly the threshold: not slow
			{at: 0, op: call, out: ok, lat: 101 * ms},
			{at: 0, op: state, wantTo: Closed},
			{at: 0, op: call, out: ok, lat: 5 * sec, wantOK: true, wantTo: Open, wantWhy: SlowCallRate},
		}},
		{"a slow probe re-opens", nil, []step{
			{at: 0, op: call, out: fail, n: 4, wantOK: true, wantTo: Open, wantWhy: FailureRate},
			{at: 1 * sec, op: call, out: ok, lat: 200 * ms, wantOK: true, wantTo: Open, wantWhy: ProbeFailed},
		}},
		{"local refusals are ignored while closed", nil, []step{
			{at: 0, op: call, out: policies.Cancelled, n: 10},
			{at: 0, op: call, out: policies.DeadlineExceeded, n: 10},
			{at: 0, op: call, out: fail, n: 3},
			{at: 0, op: state, wantTo: Closed},
		}},
		{"a local refusal gives the probe slot back", nil, []step{
			{at: 0, op: call, out: fail, n: 4, wantOK: true, wantTo: Open, wantWhy: FailureRate},
			{at: 1 * sec, op: allow, wantOK: true},
			{at: 1 * sec, op: allow, wantOK: true},
			{at: 1 * sec, op: allow, wantOK: false},
			{at: 1 * sec, op: record, out: policies.Cancelled},
			{at: 1 * sec, op: allow, wantOK: true},
			{at: 1 * sec, op: allow, wantOK: false},
		}},
		{"results of permits from an older generation are ignored", nil, []step{
			{at: 0, op: allow, wantOK: true}, // a slow call admitted while closed
			{at: 0, op: call, out: fail, n: 4, wantOK: true, wantTo: Open, wantWhy: FailureRate},
			{at: 1 * sec, op: allow, wantOK: true}, // probe 1
			{at: 2 * sec, op: record, out: ok},     // the old call: ignored, not a probe
			{at: 2 * sec, op: allow, wantOK: true}, // probe 2: the old result freed nothing
			{at: 2 * sec, op: allow, wantOK: false},
			{at: 2 * sec, op: state, wantTo: HalfOpen},
			{at: 2 * sec, op: record, out: ok},
			{at: 2 * sec, op: record, out: ok, wantOK: true, wantTo: Closed, wantWhy: ProbesSucceeded},
		}},
		{"a late failure cannot re-trip an open breaker", nil, []step{
			{at: 0, op: allow, wantOK: true},
			{at: 0, op: call, out: fail, n: 4, wantOK: true, wantTo: Open, wantWhy: FailureRate},
			{at: 500 * ms, op: record, out: fail},
			{at: 500 * ms, op: probeAt, wantAt: 1 * sec, wantOK: true},
		}},
		{"time-based window forgets old seconds", func(c *Config) {
			c.SlidingWindowType = TimeBased
			c.SlidingWindowSize = 3
		}, []step{
			{at: 100 * ms, op: call, out: fail, n: 3},
			// Bucket 0 falls out of the window [1 s, 4 s): one call only.
			{at: 3500 * ms, op: call, out: fail},
			{at: 3600 * ms, op: call, out: fail, n: 2},
			{at: 3700 * ms, op: call, out: fail, wantOK: true, wantTo: Open, wantWhy: FailureRate},
		}},
		{"time-based window keeps the last seconds", func(c *Config) {
			c.SlidingWindowType = TimeBased
			c.SlidingWindowSize = 3
		}, []step{
			{at: 0, op: call, out: fail, n: 2},
			{at: 2999 * ms, op: call, out: fail},
			{at: 2999 * ms, op: call, out: fail, wantOK: true, wantTo: Open, wantWhy: FailureRate},
		}},
		{"sub-second window: 200 buckets of 1 ms forget a call after 200 ms", func(c *Config) {
			c.SlidingWindowType = TimeBased
			c.SlidingWindowSize, c.Bucket = 200, ms
		}, []step{
			{at: 0, op: call, out: fail, n: 2},
			{at: 100 * ms, op: call, out: fail},
			// Bucket 0 falls out of the window [1 ms, 201 ms) at 200 ms.
			{at: 200 * ms, op: call, out: ok, n: 1},
			{at: 200 * ms, op: call, out: fail},
			{at: 200 * ms, op: state, wantTo: Closed},
			{at: 299 * ms, op: call, out: fail, wantOK: true, wantTo: Open, wantWhy: FailureRate},
		}},
		{"sub-second window keeps the last 199.x ms", func(c *Config) {
			c.SlidingWindowType = TimeBased
			c.SlidingWindowSize, c.Bucket = 20, 10*ms
		}, []step{
			{at: 5 * ms, op: call, out: fail, n: 3},
			{at: 199 * ms, op: call, out: fail, wantOK: true, wantTo: Open, wantWhy: FailureRate},
		}},
		{"custom failure classifier", func(c *Config) {
			c.IsFailure = func(o policies.Outcome) bool { return o == policies.Error }
		}, []step{
			{at: 0, op: call, out: policies.Rejected, n: 10},
			{at: 0, op: state, wantTo: Closed},
			{at: 0, op: call, out: policies.Error, n: 5, wantOK: true, wantTo: Open, wantWhy: FailureRate},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := testConfig()
			if tt.cfg != nil {
				tt.cfg(&cfg)
			}
			run(t, cfg, tt.steps)
		})
	}
}

func TestTransitionTrips(t *testing.T) {
	b, _ := New(testConfig())
	var trs []Transition
	rec := func(tr Transition, ok bool) {
		if ok {
			trs = append(trs, tr)
		}
	}
	for range 4 {
		p, _ := b.Allow(0)
		rec(b.Record(0, p, fail, 0))
	}
	rec(b.Refresh(1 * sec))
	p, _ := b.Allow(1 * sec)
	rec(b.Record(1*sec, p, fail, 0))
	want := []Transition{
		{Closed, Open, 0, 1, FailureRate},
		{Open, HalfOpen, 1 * sec, 1, PauseElapsed},
		{HalfOpen, Open, 1 * sec, 2, ProbeFailed},
	}
	if len(trs) != len(want) {
		t.Fatalf("transitions %+v, want %+v", trs, want)
	}
	for i := range want {
		if trs[i] != want[i] {
			t.Errorf("transition %d = %+v, want %+v", i, trs[i], want[i])
		}
	}
	if b.Generation() != 4 || b.Trips() != 2 {
		t.Errorf("generation %d trips %d, want 4, 2", b.Generation(), b.Trips())
	}
}

func TestOpenPauseDefaults(t *testing.T) {
	c := DefaultConfig()
	want := []time.Duration{15, 30, 60, 120, 240, 300, 300}
	for i, w := range want {
		if got := c.openPause(i + 1); got != w*sec {
			t.Errorf("openPause(%d) = %v, want %v", i+1, got, w*sec)
		}
	}
	if got := c.openPause(1000); got != 300*sec {
		t.Errorf("openPause(1000) = %v, want 300s", got)
	}
}

func TestCounts(t *testing.T) {
	b, _ := New(testConfig())
	for i, o := range []policies.Outcome{ok, fail, ok, policies.Cancelled} {
		p, _ := b.Allow(time.Duration(i))
		b.Record(time.Duration(i), p, o, 150*ms*time.Duration(1-int(o)))
	}
	if got, want := b.Counts(10), (Counts{Calls: 3, Failures: 1, Slow: 2}); got != want {
		t.Errorf("Counts = %+v, want %+v", got, want)
	}
	tb := testConfig()
	tb.SlidingWindowType, tb.SlidingWindowSize = TimeBased, 2
	b, _ = New(tb)
	p, _ := b.Allow(-1500 * ms) // negative instants work: bucket -2
	b.Record(-1500*ms, p, fail, 0)
	p, _ = b.Allow(-500 * ms)
	b.Record(-500*ms, p, ok, 0)
	if got, want := b.Counts(-1), (Counts{Calls: 2, Failures: 1}); got != want {
		t.Errorf("Counts(-1) = %+v, want %+v", got, want)
	}
	if got, want := b.Counts(0), (Counts{Calls: 1}); got != want {
		t.Errorf("Counts(0) = %+v, want %+v", got, want)
	}
	if got := b.Counts(10 * sec); got != (Counts{}) {
		t.Errorf("Counts(10s) = %+v, want zero", got)
	}
}

func TestZeroPermitIgnored(t *testing.T) {
	b, _ := New(testConfig())
	for range 10 {
		if _, ok := b.Record(0, Permit{}, fail, 0); ok {
			t.Fatal("zero permit caused a transition")
		}
	}
	if c := b.Counts(0); c.Calls != 0 {
		t.Fatalf("zero permit recorded: %+v", c)
	}
}

func TestMinimumCappedByCountWindow(t *testing.T) {
	c := testConfig()
	c.MinimumNumberOfCalls = 50 // larger than the window of 10
	run(t, c, []step{
		{at: 0, op: call, out: fail, n: 9},
		{at: 0, op: call, out: fail, wantOK: true, wantTo: Open, wantWhy: FailureRate},
	})
}

func TestConfigValidate(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatalf("DefaultConfig invalid: %v", err)
	}
	bad := []func(*Config){
		func(c *Config) { c.SlidingWindowType = 7 },
		func(c *Config) { c.SlidingWindowSize = 0 },
		func(c *Config) { c.SlidingWindowSize = maxWindowSize + 1 },
		func(c *Config) { c.MinimumNumberOfCalls = 0 },
		func(c *Config) { c.FailureRateThreshold = 0 },
		func(c *Config) { c.FailureRateThreshold = 101 },
		func(c *Config) { c.SlowCallRateThreshold = -1 },
		func(c *Config) { c.SlowCallDurationThreshold = 0 },
		func(c *Config) { c.Bucket = -ms },
		func(c *Config) { c.PermittedNumberOfCallsInHalfOpenState = 0 },
		func(c *Config) { c.WaitDurationInOpenState = 0 },
		func(c *Config) { c.MaxWaitDurationInOpenState = c.WaitDurationInOpenState - 1 },
	}
	for i, f := range bad {
		c := DefaultConfig()
		f(&c)
		if _, err := New(c); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("case %d: New error %v, want ErrInvalidConfig", i, err)
		}
	}
}

func TestStrings(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Closed.String(), "closed"}, {Open.String(), "open"}, {HalfOpen.String(), "half_open"},
		{State(9).String(), "unknown"}, {CountBased.String(), "count_based"},
		{TimeBased.String(), "time_based"}, {WindowType(9).String(), "unknown"},
		{FailureRate.String(), "failure_rate"}, {SlowCallRate.String(), "slow_call_rate"},
		{ProbeFailed.String(), "probe_failed"}, {PauseElapsed.String(), "pause_elapsed"},
		{ProbesSucceeded.String(), "probes_succeeded"}, {Reason(0).String(), "unknown"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

package hedge

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

const ms = time.Millisecond

func mustNew(t testing.TB, c Config) *Policy {
	t.Helper()
	p, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Events of the step tables.
const (
	evStart = iota
	evDue
	evOutcome
	evTimeout // per-try timeout
)

type step struct {
	ev      int
	at      time.Duration
	o       policies.Outcome // evOutcome
	u       float64          // evStart
	action  Action
	send    int
	nextAt  time.Duration
	reason  Reason
	result  policies.Outcome // Decision.Outcome
	cancel  int
	inFl    int // Next.InFlight() after the row
	keep    bool
	limitTo int // >= 0: apply Limit(limitTo) before checking; -1: none
}

var (
	ok      = policies.Success
	errO    = policies.Error
	timeO   = policies.Timeout
	rejO    = policies.Rejected
	openO   = policies.CircuitOpen
	nonFata = NewOutcomeSet(policies.Error, policies.Timeout, policies.Rejected)
)

// runSteps plays one call through p, one event per row, and checks each
// decision and the call state after it.
func runSteps(t *testing.T, p *Policy, steps []step) {
	t.Helper()
	var c Call
	for i, s := range steps {
		var d Decision
		switch s.ev {
		case evStart:
			d = p.Start(s.at, c, s.u)
		case evDue:
			d = p.Due(s.at, c)
		case evOutcome:
			d = p.Outcome(s.at, c, s.o)
		case evTimeout:
			d = p.PerTryTimeout(s.at, c)
		}
		if s.limitTo >= 0 {
			d = d.Limit(s.limitTo)
		}
		if d.Action != s.action || d.Send != s.send || d.NextAt != s.nextAt || d.Reason != s.reason ||
			d.Outcome != s.result || d.Cancel != s.cancel || d.Keep != s.keep {
			t.Errorf("step %d (ev %d at %v %v): got %v send %d next %v reason %v outcome %v cancel %d keep %v;\n"+
				"                          want %v send %d next %v reason %v outcome %v cancel %d keep %v",
				i, s.ev, s.at, s.o, d.Action, d.Send, d.NextAt, d.Reason, d.Outcome, d.Cancel, d.Keep,
				s.action, s.send, s.nextAt, s.reason, s.result, s.cancel, s.keep)
		}
		if got := d.Next.InFlight(); got != s.inFl {
			t.Errorf("step %d: Next.InFlight() = %d, want %d", i, got, s.inFl)
		}
		if d.Next.Done() != d.Action.Done() && d.Reason != ReasonIgnored {
			t.Errorf("step %d: Next.Done() = %v with action %v", i, d.Next.Done(), d.Action)
		}
		if d.Send != 0 && d.Hedges > d.Send {
			t.Errorf("step %d: %d hedges among %d copies", i, d.Hedges, d.Send)
		}
		c = d.Next
	}
}

const N = Never

func TestSteps(t *testing.T) {
	tests := []struct {
		name  string
		cfg   func(*Config)
		steps []step
	}{
		{"timed hedges, the second copy wins", func(c *Config) { c.MaxAttempts, c.Delay = 3, 10*ms }, []step{
			{evStart, 100 * ms, 0, 0.5, Send, 1, 110 * ms, ReasonStart, ok, 0, 1, false, -1},
			{evDue, 105 * ms, 0, 0, Wait, 0, 110 * ms, ReasonNotDue, ok, 0, 1, false, -1}, // early timer
			{evDue, 110 * ms, 0, 0, Send, 1, 120 * ms, ReasonDelay, ok, 0, 2, false, -1},
			{evOutcome, 115 * ms, ok, 0, Succeed, 0, N, ReasonSuccess, ok, 1, 2, false, -1},
			{evOutcome, 130 * ms, errO, 0, Wait, 0, N, ReasonIgnored, ok, 0, 2, false, -1}, // the loser's late answer
			{evDue, 120 * ms, 0, 0, Wait, 0, N, ReasonIgnored, ok, 0, 2, false, -1},        // a stale timer
		}},
		{"every copy sent on its delay, then exhausted", func(c *Config) {
			c.MaxAttempts, c.Delay, c.NonFatal = 3, 10*ms, nonFata
		}, []step{
			{evStart, 0, 0, 0, Send, 1, 10 * ms, ReasonStart, ok, 0, 1, false, -1},
			{evDue, 10 * ms, 0, 0, Send, 1, 20 * ms, ReasonDelay, ok, 0, 2, false, -1},
			{evDue, 20 * ms, 0, 0, Send, 1, N, ReasonDelay, ok, 0, 3, false, -1},
			{evDue, 30 * ms, 0, 0, Wait, 0, N, ReasonNotDue, ok, 0, 3, false, -1},
			{evOutcome, 31 * ms, errO, 0, Wait, 0, N, ReasonNonFatal, ok, 0, 2, false, -1},
			{evOutcome, 32 * ms, rejO, 0, Wait, 0, N, ReasonNonFatal, ok, 0, 1, false, -1},
			{evOutcome, 33 * ms, timeO, 0, Fail, 0, N, ReasonExhausted, timeO, 0, 0, false, -1},
		}},
		{"a non-fatal failure short-cuts the delay", func(c *Config) {
			c.MaxAttempts, c.Delay, c.NonFatal = 3, 10*ms, nonFata
		}, []step{
			{evStart, 0, 0, 0, Send, 1, 10 * ms, ReasonStart, ok, 0, 1, false, -1},
			{evOutcome, 4 * ms, errO, 0, Send, 1, 14 * ms, ReasonNonFatal, ok, 0, 1, false, -1},
			{evDue, 10 * ms, 0, 0, Wait, 0, 14 * ms, ReasonNotDue, ok, 0, 1, false, -1}, // the stale first timer
			{evDue, 14 * ms, 0, 0, Send, 1, N, ReasonDelay, ok, 0, 2, false, -1},
			{evOutcome, 20 * ms, ok, 0, Succeed, 0, N, ReasonSuccess, ok, 1, 2, false, -1},
		}},
		{"a fatal failure ends the call", func(c *Config) {
			c.MaxAttempts, c.Delay, c.NonFatal = 3, 10*ms, NewOutcomeSet(policies.Rejected)
		}, []step{
			{evStart, 0, 0, 0, Send, 1, 10 * ms, ReasonStart, ok, 0, 1, false, -1},
			{evDue, 10 * ms, 0, 0, Send, 1, 20 * ms, ReasonDelay, ok, 0, 2, false, -1},
			{evOutcome, 12 * ms, rejO, 0, Send, 1, N, ReasonNonFatal, ok, 0, 2, false, -1},
			{evOutcome, 15 * ms, errO, 0, Fail, 0, N, ReasonFatal, errO, 1, 2, false, -1},
			{evOutcome, 16 * ms, ok, 0, Wait, 0, N, ReasonIgnored, ok, 0, 2, false, -1},
		}},
		{"gRPC's default: every failure fatal", func(c *Config) { c.Delay = 10 * ms }, []step{
			{evStart, 0, 0, 0, Send, 1, 10 * ms, ReasonStart, ok, 0, 1, false, -1},
			{evOutcome, 1 * ms, rejO, 0, Fail, 0, N, ReasonFatal, rejO, 0, 1, false, -1},
		}},
		{"circuit open is fatal even among non-fatal outcomes", func(c *Config) {
			c.MaxAttempts, c.Delay, c.NonFatal = 2, 0, nonFata
		}, []step{
			{evStart, 0, 0, 0, Send, 2, N, ReasonStart, ok, 0, 2, false, -1},
			{evOutcome, 1 * ms, openO, 0, Fail, 0, N, ReasonFatal, openO, 1, 2, false, -1},
		}},
		{"delay 0 sends every copy at once", func(c *Config) { c.MaxAttempts, c.NonFatal = 4, nonFata }, []step{
			{evStart, 7 * ms, 0, 0.99, Send, 4, N, ReasonStart, ok, 0, 4, false, -1},
			{evOutcome, 9 * ms, errO, 0, Wait, 0, N, ReasonNonFatal, ok, 0, 3, false, -1},
			{evOutcome, 10 * ms, ok, 0, Succeed, 0, N, ReasonSuccess, ok, 2, 3, false, -1},
		}},
		{"initial requests, then the delay", func(c *Config) {
			c.MaxAttempts, c.Delay, c.InitialRequests = 4, 10*ms, 2
		}, []step{
			{evStart, 0, 0, 0.5, Send, 2, 10 * ms, ReasonStart, ok, 0, 2, false, -1},
			{evDue, 10 * ms, 0, 0, Send, 1, 20 * ms, ReasonDelay, ok, 0, 3, false, -1},
			{evDue, 20 * ms, 0, 0, Send, 1, N, ReasonDelay, ok, 0, 4, false, -1},
			{evOutcome, 25 * ms, ok, 0, Succeed, 0, N, ReasonSuccess, ok, 3, 4, false, -1},
		}},
		{"additional chance, u below", func(c *Config) {
			c.MaxAttempts, c.Delay, c.AdditionalChance = 3, 10*ms, 0.05
		}, []step{
			{evStart, 0, 0, 0.049, Send, 2, 10 * ms, ReasonStart, ok, 0, 2, false, -1},
			{evDue, 10 * ms, 0, 0, Send, 1, N, ReasonDelay, ok, 0, 3, false, -1},
		}},
		{"additional chance, u at and above", func(c *Config) {
			c.MaxAttempts, c.Delay, c.AdditionalChance = 3, 10*ms, 0.05
		}, []step{
			{evStart, 0, 0, 0.05, Send, 1, 10 * ms, ReasonStart, ok, 0, 1, false, -1},
		}},
		{"additional chance never exceeds MaxAttempts", func(c *Config) {
			c.MaxAttempts, c.Delay, c.InitialRequests, c.AdditionalChance = 2, 10*ms, 2, 1
		}, []step{
			{evStart, 0, 0, 0, Send, 2, N, ReasonStart, ok, 0, 2, false, -1},
		}},
		{"per-try timeout cancels the copy by default", func(c *Config) {
			c.MaxAttempts, c.Delay, c.NonFatal = 2, N, nonFata
		}, []step{
			{evStart, 0, 0, 0, Send, 1, N, ReasonStart, ok, 0, 1, false, -1},
			{evTimeout, 50 * ms, 0, 0, Send, 1, N, ReasonNonFatal, ok, 0, 1, false, -1},
			{evTimeout, 100 * ms, 0, 0, Fail, 0, N, ReasonExhausted, timeO, 0, 0, false, -1},
		}},
		{"per-try timeout, fatal by default", func(c *Config) { c.MaxAttempts, c.Delay = 2, N }, []step{
			{evStart, 0, 0, 0, Send, 1, N, ReasonStart, ok, 0, 1, false, -1},
			{evTimeout, 50 * ms, 0, 0, Fail, 0, N, ReasonFatal, timeO, 0, 1, false, -1},
		}},
		{"hedge on per-try timeout keeps the slow copy", func(c *Config) {
			c.MaxAttempts, c.Delay, c.OnPerTryTimeout = 3, N, true
		}, []step{
			{evStart, 0, 0, 0, Send, 1, N, ReasonStart, ok, 0, 1, false, -1},
			{evTimeout, 50 * ms, 0, 0, Send, 1, N, ReasonPerTryTimeout, ok, 0, 2, true, -1},
			{evTimeout, 100 * ms, 0, 0, Send, 1, N, ReasonPerTryTimeout, ok, 0, 3, true, -1},
			{evTimeout, 101 * ms, 0, 0, Wait, 0, N, ReasonPerTryTimeout, ok, 0, 3, true, -1}, // none left
			{evOutcome, 120 * ms, ok, 0, Succeed, 0, N, ReasonSuccess, ok, 2, 3, false, -1},  // the first one, late
		}},
		{"per-try timeout and a timer together", func(c *Config) {
			c.MaxAttempts, c.Delay, c.OnPerTryTimeout = 3, 30*ms, true
		}, []step{
			{evStart, 0, 0, 0, Send, 1, 30 * ms, ReasonStart, ok, 0, 1, false, -1},
			{evTimeout, 20 * ms, 0, 0, Send, 1, 50 * ms, ReasonPerTryTimeout, ok, 0, 2, true, -1},
			{evDue, 30 * ms, 0, 0, Wait, 0, 50 * ms, ReasonNotDue, ok, 0, 2, false, -1},
			{evDue, 50 * ms, 0, 0, Send, 1, N, ReasonDelay, ok, 0, 3, false, -1},
		}},
		{"throttled at the start", func(c *Config) { c.MaxAttempts, c.NonFatal = 3, nonFata }, []step{
			{evStart, 0, 0, 0, Send, 2, N, ReasonStart, ok, 0, 2, false, 1}, // 2 hedges, 1 allowed
			{evOutcome, 1 * ms, errO, 0, Wait, 0, N, ReasonNonFatal, ok, 0, 1, false, -1},
			{evOutcome, 2 * ms, errO, 0, Fail, 0, N, ReasonThrottled, errO, 0, 0, false, -1},
		}},
		{"throttled timed hedge", func(c *Config) { c.MaxAttempts, c.Delay = 3, 10*ms }, []step{
			{evStart, 0, 0, 0, Send, 1, 10 * ms, ReasonStart, ok, 0, 1, false, -1},
			{evDue, 10 * ms, 0, 0, Wait, 0, N, ReasonThrottled, ok, 0, 1, false, 0},
			{evDue, 20 * ms, 0, 0, Wait, 0, N, ReasonNotDue, ok, 0, 1, false, -1},
			{evOutcome, 25 * ms, ok, 0, Succeed, 0, N, ReasonSuccess, ok, 0, 1, false, -1},
		}},
		{"throttled short-cut with nothing in flight", func(c *Config) {
			c.MaxAttempts, c.Delay, c.NonFatal = 3, 10*ms, nonFata
		}, []step{
			{evStart, 0, 0, 0, Send, 1, 10 * ms, ReasonStart, ok, 0, 1, false, -1},
			{evOutcome, 3 * ms, rejO, 0, Fail, 0, N, ReasonThrottled, rejO, 0, 0, false, 0},
		}},
		{"one attempt: no hedging", func(c *Config) { c.MaxAttempts, c.NonFatal = 1, nonFata }, []step{
			{evStart, 0, 0, 0, Send, 1, N, ReasonStart, ok, 0, 1, false, -1},
			{evOutcome, 5 * ms, errO, 0, Fail, 0, N, ReasonExhausted, errO, 0, 0, false, -1},
			{evStart, 6 * ms, 0, 0, Wait, 0, N, ReasonIgnored, ok, 0, 0, false, -1}, // no restart
		}},
		{"events before the start", func(c *Config) { c.Delay = 10 * ms }, []step{
			{evDue, 0, 0, 0, Wait, 0, N, ReasonIgnored, ok, 0, 0, false, -1},
			{evOutcome, 0, ok, 0, Wait, 0, N, ReasonIgnored, ok, 0, 0, false, -1},
			{evTimeout, 0, 0, 0, Wait, 0, N, ReasonIgnored, ok, 0, 0, false, -1},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultConfig()
			tt.cfg(&cfg)
			runSteps(t, mustNew(t, cfg), tt.steps)
		})
	}
}

// TestLateDue checks that a late timer keeps the schedule anchored to the
// call's start, and that a very late one makes the next hedge due at once.
func TestLateDue(t *testing.T) {
	p := mustNew(t, Config{MaxAttempts: 4, Delay: 10 * ms, InitialRequests: 1})
	d := p.Start(0, Call{}, 0)
	d = p.Due(13*ms, d.Next) // 3 ms late
	if d.Action != Send || d.NextAt != 20*ms {
		t.Fatalf("late Due = %+v, want send and next at 20ms", d)
	}
	d = p.Due(45*ms, d.Next) // 25 ms late
	if d.Action != Send || d.NextAt != 45*ms {
		t.Fatalf("very late Due = %+v, want send and next due at once (45ms)", d)
	}
}

func TestNeverSaturates(t *testing.T) {
	p := mustNew(t, Config{MaxAttempts: 2, Delay: Never - 1, InitialRequests: 1})
	if d := p.Start(5, Call{}, 0); d.NextAt != Never {
		t.Errorf("NextAt = %v, want Never (saturated)", d.NextAt)
	}
}

func TestLimitKeepsDecisionsWithoutHedges(t *testing.T) {
	p := mustNew(t, Config{MaxAttempts: 3, Delay: 10 * ms, InitialRequests: 1})
	d := p.Start(0, Call{}, 0)
	if got := d.Deny(); got != d {
		t.Errorf("Deny of the first copy changed the decision: %+v", got)
	}
	d = p.Due(10*ms, d.Next)
	if got := d.Limit(1); got != d {
		t.Errorf("Limit(1) of one hedge changed the decision: %+v", got)
	}
	done := p.Outcome(11*ms, d.Next, policies.Success)
	if got := done.Deny(); got != done {
		t.Errorf("Deny of a final decision changed it: %+v", got)
	}
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name string
		mod  func(*Config)
	}{
		{"zero attempts", func(c *Config) { c.MaxAttempts = 0 }},
		{"above gRPC's cap", func(c *Config) { c.MaxAttempts = MaxMaxAttempts + 1 }},
		{"negative delay", func(c *Config) { c.Delay = -1 }},
		{"zero initial", func(c *Config) { c.InitialRequests = 0 }},
		{"initial above max", func(c *Config) { c.InitialRequests = 3 }},
		{"negative chance", func(c *Config) { c.AdditionalChance = -0.1 }},
		{"chance above 1", func(c *Config) { c.AdditionalChance = 1.5 }},
		{"NaN chance", func(c *Config) { c.AdditionalChance = math.NaN() }},
		{"success non-fatal", func(c *Config) { c.NonFatal = c.NonFatal.With(policies.Success) }},
		{"circuit open non-fatal", func(c *Config) { c.NonFatal = c.NonFatal.With(policies.CircuitOpen) }},
		{"deadline non-fatal", func(c *Config) { c.NonFatal = c.NonFatal.With(policies.DeadlineExceeded) }},
		{"cancelled non-fatal", func(c *Config) { c.NonFatal = c.NonFatal.With(policies.Cancelled) }},
		{"unknown outcome bit", func(c *Config) { c.NonFatal |= 1 << 12 }},
	}
	for _, tt := range tests {
		cfg := DefaultConfig()
		tt.mod(&cfg)
		if _, err := New(cfg); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("%s: New error = %v, want ErrInvalidConfig", tt.name, err)
		}
	}
	if _, err := New(Config{}); err == nil {
		t.Error("the zero Config must be rejected")
	}
	if _, err := New(DefaultConfig()); err != nil {
		t.Errorf("DefaultConfig: %v", err)
	}
	all := Config{MaxAttempts: 5, Delay: Never, InitialRequests: 5, AdditionalChance: 1, NonFatal: nonFatalAllowed, OnPerTryTimeout: true}
	if _, err := New(all); err != nil {
		t.Errorf("extreme but valid config: %v", err)
	}
}

func TestStrings(t *testing.T) {
	if ReasonThrottled.String() != "throttled" || ReasonStart.String() != "start" || Reason(99).String() != "Reason(99)" {
		t.Error("reason names changed")
	}
	if Send.String() != "send" || Fail.String() != "fail" || Action(9).String() != "Action(9)" {
		t.Error("action names changed")
	}
	if !Succeed.Done() || !Fail.Done() || Send.Done() || Wait.Done() {
		t.Error("Action.Done wrong")
	}
}

func TestAmplification(t *testing.T) {
	tests := []struct {
		in   []int
		want int64
	}{
		{nil, 1},
		{[]int{2, 2, 2}, 8},
		{[]int{5, 0, -3}, 5},
		{[]int{math.MaxInt, math.MaxInt}, math.MaxInt64},
	}
	for _, tt := range tests {
		if got := Amplification(tt.in...); got != tt.want {
			t.Errorf("Amplification(%v) = %d, want %d", tt.in, got, tt.want)
		}
	}
	if got := mustNew(t, Config{MaxAttempts: 4, InitialRequests: 1}).MaxCopies(); got != 4 {
		t.Errorf("MaxCopies = %d, want 4", got)
	}
}

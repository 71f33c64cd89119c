package retry

import (
	"errors"
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

// TestDecideSteps walks calls through their attempts at made-up instants.
// Each row is one Decide call; the call state carries over from the row
// before when the row's fresh column is false.
func TestDecideSteps(t *testing.T) {
	cfg := DefaultConfig()
	cfg.AttemptTimeout = 100 * ms
	p := mustNew(t, cfg)
	steps := []struct {
		fresh     bool // start a new call (zero Call) at this row
		at        time.Duration
		outcome   policies.Outcome
		deadline  time.Duration
		u         float64
		retry     bool
		delay     time.Duration
		reason    Reason
		attempts  int // Next.Attempts() after the row
		wantAtSet time.Duration
	}{
		// Call 1: fails twice, third attempt succeeds. Full jitter:
		// retry 0 in [0, 50ms), retry 1 in [0, 100ms).
		{true, 100 * ms, policies.Error, 0, 0.5, true, 25 * ms, ReasonRetry, 2, 125 * ms},
		{false, 225 * ms, policies.Timeout, 0, 0.5, true, 50 * ms, ReasonRetry, 3, 275 * ms},
		{false, 300 * ms, policies.Success, 0, 0.5, false, 0, ReasonSuccess, 3, 0},
		// Call 2: three failures exhaust the 3 attempts.
		{true, 0, policies.Rejected, 0, 0, true, 0, ReasonRetry, 2, 0},
		{false, 10 * ms, policies.Error, 0, 0.99, true, 99 * ms, ReasonRetry, 3, 109 * ms},
		{false, 300 * ms, policies.Error, 0, 0.5, false, 0, ReasonExhausted, 3, 0},
		// Call 3: a breaker-open rejection is never retried.
		{true, 0, policies.CircuitOpen, 0, 0.5, false, 0, ReasonNotRetryable, 1, 0},
		// Call 4: the deadline rule. Deadline at 1000 ms, timeout 100 ms.
		// now 875 + delay 25 + 100 = 1000: fits exactly (not > deadline).
		{true, 875 * ms, policies.Error, 1000 * ms, 0.5, true, 25 * ms, ReasonRetry, 2, 900 * ms},
		// now 900 + delay 50 + 100 = 1050 > 1000: refused.
		{false, 900 * ms, policies.Error, 1000 * ms, 0.5, false, 0, ReasonDeadline, 2, 0},
		// Call 5: already past the deadline.
		{true, 1001 * ms, policies.Timeout, 1000 * ms, 0, false, 0, ReasonDeadline, 1, 0},
		// Call 6: local refusals and cancellations.
		{true, 0, policies.BulkheadFull, 0, 0, false, 0, ReasonNotRetryable, 1, 0},
		{true, 0, policies.DeadlineExceeded, 0, 0, false, 0, ReasonNotRetryable, 1, 0},
		{true, 0, policies.Cancelled, 0, 0, false, 0, ReasonNotRetryable, 1, 0},
	}
	var c Call
	for i, s := range steps {
		if s.fresh {
			c = Call{}
		}
		d := p.Decide(s.at, c, s.outcome, s.deadline, s.u)
		if d.Retry != s.retry || d.Delay != s.delay || d.Reason != s.reason || d.At != s.wantAtSet {
			t.Errorf("step %d (at %v, %v): got retry %v delay %v at %v reason %v; want %v %v %v %v",
				i, s.at, s.outcome, d.Retry, d.Delay, d.At, d.Reason, s.retry, s.delay, s.wantAtSet, s.reason)
		}
		if got := d.Next.Attempts(); got != s.attempts {
			t.Errorf("step %d: Next.Attempts() = %d, want %d", i, got, s.attempts)
		}
		c = d.Next
	}
}

func TestDecideNoTimeoutDeadline(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Backoff = BackoffConstant // delay = Base = 50 ms
	p := mustNew(t, cfg)
	tests := []struct {
		at, deadline time.Duration
		retry        bool
	}{
		{0, 0, true},        // no deadline
		{0, 51 * ms, true},  // starts at 50, 1 ms left
		{0, 50 * ms, false}, // would start exactly at the deadline
		{10 * ms, 55 * ms, false},
	}
	for _, tt := range tests {
		d := p.Decide(tt.at, Call{}, policies.Error, tt.deadline, 0)
		if d.Retry != tt.retry {
			t.Errorf("Decide(at %v, deadline %v).Retry = %v, want %v", tt.at, tt.deadline, d.Retry, tt.retry)
		}
	}
}

// TestDecideAfterHint checks that a Retry-After hint sets a floor on the
// delay, that a shorter hint leaves the backoff alone, and that the deadline
// rule applies to the hinted delay.
func TestDecideAfterHint(t *testing.T) {
	cfg := DefaultConfig()
	cfg.AttemptTimeout = 100 * ms
	p := mustNew(t, cfg)
	rej, open := policies.Rejected, policies.CircuitOpen
	tests := []struct {
		outcome        policies.Outcome
		deadline, hint time.Duration
		retry          bool
		delay          time.Duration
		reason         Reason
	}{
		{rej, 0, 0, true, 25 * ms, ReasonRetry},                       // no hint: full jitter, u 0.5
		{rej, 0, 10 * ms, true, 25 * ms, ReasonRetry},                 // shorter hint: backoff wins
		{rej, 0, time.Second, true, time.Second, ReasonRetry},         // the callee asked for 1 s
		{rej, 0, 5 * time.Second, true, 5 * time.Second, ReasonRetry}, // not capped by Cap
		{rej, 0, 1000 * time.Hour, true, MaxCap, ReasonRetry},         // but by MaxCap
		{rej, 800 * ms, time.Second, false, 0, ReasonDeadline},        // 1 s wait cannot fit 800 ms
		{rej, 1100 * ms, time.Second, true, time.Second, ReasonRetry}, // 1 s + 100 ms fits exactly
		{open, 0, time.Second, false, 0, ReasonNotRetryable},          // a hint never makes CircuitOpen retryable
	}
	for i, tt := range tests {
		d := p.DecideAfter(0, Call{}, tt.outcome, tt.deadline, 0.5, tt.hint)
		if d.Retry != tt.retry || d.Delay != tt.delay || d.Reason != tt.reason {
			t.Errorf("case %d (%v, hint %v, deadline %v): retry %v delay %v reason %v; want %v %v %v",
				i, tt.outcome, tt.hint, tt.deadline, d.Retry, d.Delay, d.Reason, tt.retry, tt.delay, tt.reason)
		}
	}
}

func TestDecideConfigVariants(t *testing.T) {
	tests := []struct {
		name    string
		mod     func(*Config)
		outcome policies.Outcome
		reason  Reason
	}{
		{"not idempotent", func(c *Config) { c.Idempotent = false }, policies.Error, ReasonNotIdempotent},
		{"not idempotent, success", func(c *Config) { c.Idempotent = false }, policies.Success, ReasonSuccess},
		{"not idempotent, circuit open", func(c *Config) { c.Idempotent = false }, policies.CircuitOpen, ReasonNotRetryable},
		{"one attempt", func(c *Config) { c.MaxAttempts = 1 }, policies.Error, ReasonExhausted},
		{"timeouts only, error", func(c *Config) { c.RetryOn = NewOutcomeSet(policies.Timeout) }, policies.Error, ReasonNotRetryable},
		{"timeouts only, timeout", func(c *Config) { c.RetryOn = NewOutcomeSet(policies.Timeout) }, policies.Timeout, ReasonRetry},
		{"bulkhead opted in", func(c *Config) { c.RetryOn = DefaultRetryOn.With(policies.BulkheadFull) }, policies.BulkheadFull, ReasonRetry},
	}
	for _, tt := range tests {
		cfg := DefaultConfig()
		tt.mod(&cfg)
		p := mustNew(t, cfg)
		d := p.Decide(0, Call{}, tt.outcome, 0, 0.5)
		if d.Reason != tt.reason || d.Retry != (tt.reason == ReasonRetry) {
			t.Errorf("%s: got %v (retry %v), want %v", tt.name, d.Reason, d.Retry, tt.reason)
		}
	}
}

func TestDeny(t *testing.T) {
	p := mustNew(t, DefaultConfig())
	c := Call{}
	d := p.Decide(0, c, policies.Error, 0, 0.5)
	if !d.Retry {
		t.Fatal("want a retry")
	}
	c = d.Next
	d = p.Decide(100*ms, c, policies.Error, 0, 0.5)
	denied := d.Deny(ReasonBudget)
	if denied.Retry || denied.Reason != ReasonBudget || denied.Delay != 0 || denied.At != 0 || denied.Next != c {
		t.Errorf("Deny = %+v, want refused with budget reason and state %+v", denied, c)
	}
	if odd := d.Deny(ReasonRetry); odd.Retry || odd.Reason != ReasonBudget {
		t.Errorf("Deny(ReasonRetry) = %+v, want a refusal with reason budget", odd)
	}
	if again := denied.Deny(ReasonDeadline); again != denied {
		t.Errorf("Deny of a refused decision changed it: %+v", again)
	}
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name string
		mod  func(*Config)
	}{
		{"zero attempts", func(c *Config) { c.MaxAttempts = 0 }},
		{"too many attempts", func(c *Config) { c.MaxAttempts = MaxMaxAttempts + 1 }},
		{"empty RetryOn", func(c *Config) { c.RetryOn = 0 }},
		{"retry success", func(c *Config) { c.RetryOn = c.RetryOn.With(policies.Success) }},
		{"retry circuit open", func(c *Config) { c.RetryOn = c.RetryOn.With(policies.CircuitOpen) }},
		{"retry deadline exceeded", func(c *Config) { c.RetryOn = c.RetryOn.With(policies.DeadlineExceeded) }},
		{"retry cancelled", func(c *Config) { c.RetryOn = c.RetryOn.With(policies.Cancelled) }},
		{"unknown outcome bit", func(c *Config) { c.RetryOn |= 1 << 12 }},
		{"unknown backoff", func(c *Config) { c.Backoff = numBackoffs }},
		{"negative base", func(c *Config) { c.Base = -1 }},
		{"negative timeout", func(c *Config) { c.AttemptTimeout = -1 }},
		{"zero base", func(c *Config) { c.Base = 0 }},
		{"base above cap", func(c *Config) { c.Base = 3 * time.Second }},
		{"cap too large", func(c *Config) { c.Cap = MaxCap + 1 }},
	}
	for _, tt := range tests {
		cfg := DefaultConfig()
		tt.mod(&cfg)
		_, err := New(cfg)
		if !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("%s: New error = %v, want ErrInvalidConfig", tt.name, err)
		}
	}
	if _, err := New(Config{}); err == nil {
		t.Error("the zero Config must be rejected")
	}
	none := DefaultConfig()
	none.Backoff, none.Base, none.Cap = BackoffNone, 0, 0
	if _, err := New(none); err != nil {
		t.Errorf("BackoffNone with zero durations: %v", err)
	}
}

func TestStrings(t *testing.T) {
	for b := Backoff(0); b < numBackoffs; b++ {
		if got, ok := ParseBackoff(b.String()); !ok || got != b {
			t.Errorf("ParseBackoff(%q) = %v, %v", b.String(), got, ok)
		}
	}
	if _, ok := ParseBackoff("linear"); ok {
		t.Error("ParseBackoff accepted an unknown name")
	}
	if Backoff(99).String() != "Backoff(99)" || Reason(99).String() != "Reason(99)" {
		t.Error("unknown values must print their number")
	}
	if ReasonBudget.String() != "budget" || ReasonRetry.String() != "retry" {
		t.Error("reason names changed")
	}
}

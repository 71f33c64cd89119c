package breaker

import (
	"errors"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

// gateStep records an outcome n times at at (rec), or asks AllowRetry at at
// and wants want.
type gateStep struct {
	at   time.Duration
	rec  bool
	out  policies.Outcome
	n    int
	want bool
}

// TestRetryGateSteps checks RetryGate against RetryCircuitBreakerStrategy
// of jirfag/simulations, retry_strategies.py at commit
// 746a5efcbf768470345dd5a0a5caee04faaa7bc3 (0.1 failure rate over 200 ms,
// the "retry-cb-10%" strategy of simulation_main.py): every attempt's
// outcome, first or retry, enters the window (add_call_to_stats); a retry
// is refused when the window is empty, or when failed/len >= 0.1
// (need_retry); an event leaves once now - t >= 200 ms. Each row says
// which line of his rule it checks.
func TestRetryGateSteps(t *testing.T) {
	cases := []struct {
		name  string
		steps []gateStep
	}{
		{"an empty window refuses (no finished request yet)", []gateStep{
			{at: 0, want: false},
		}},
		{"9 failures in 100 attempts: 9 % < 10 %, retry", []gateStep{
			{at: 0, rec: true, out: ok, n: 91},
			{at: 10 * ms, rec: true, out: fail, n: 9},
			{at: 10 * ms, want: true},
		}},
		{"10 failures in 100 attempts: 10 % >= 10 %, refused", []gateStep{
			{at: 0, rec: true, out: ok, n: 90},
			{at: 10 * ms, rec: true, out: fail, n: 10},
			{at: 10 * ms, want: false},
		}},
		{"one failed attempt alone refuses: no minimum number of calls", []gateStep{
			{at: 0, rec: true, out: fail},
			{at: 0, want: false},
		}},
		{"a timeout is a failure (is_ok false)", []gateStep{
			{at: 0, rec: true, out: ok, n: 5},
			{at: 0, rec: true, out: policies.Timeout},
			{at: 0, want: false},
		}},
		{"no states: the gate reopens as soon as the rate falls", []gateStep{
			{at: 0, rec: true, out: fail},
			{at: 0, want: false},
			{at: 1 * ms, rec: true, out: ok, n: 9},
			{at: 1 * ms, want: false}, // 1 of 10
			{at: 1 * ms, rec: true, out: ok},
			{at: 1 * ms, want: true}, // 1 of 11
		}},
		{"failures older than 200 ms are forgotten", []gateStep{
			{at: 0, rec: true, out: fail, n: 5},
			{at: 150 * ms, rec: true, out: ok, n: 10},
			{at: 199 * ms, want: false},
			{at: 200 * ms, want: true}, // now - t >= 200 ms: gone
		}},
		{"the whole window forgotten: empty, refused", []gateStep{
			{at: 0, rec: true, out: ok, n: 5},
			{at: 199 * ms, want: true},
			{at: 200 * ms, want: false},
		}},
		{"local refusals say nothing about the callee", []gateStep{
			{at: 0, rec: true, out: ok, n: 10},
			{at: 0, rec: true, out: policies.CircuitOpen, n: 50},
			{at: 0, rec: true, out: policies.BulkheadFull, n: 50},
			{at: 0, want: true},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g, err := NewRetryGate(DefaultRetryGateConfig())
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range tc.steps {
				if s.rec {
					for range max(s.n, 1) {
						g.Record(s.at, s.out)
					}
					continue
				}
				if got := g.AllowRetry(s.at); got != s.want {
					t.Fatalf("step %d at %v: AllowRetry = %v, want %v (counts %+v)", i, s.at, got, s.want, g.Counts(s.at))
				}
			}
		})
	}
}

// TestRetryGateBucketEdge: with 1 ms buckets an outcome at t leaves the
// window at floor(t/1ms)+200 ms, up to one bucket earlier than jirfag's
// exact deque (t + 200 ms).
func TestRetryGateBucketEdge(t *testing.T) {
	g, _ := NewRetryGate(DefaultRetryGateConfig())
	g.Record(500*time.Microsecond, ok)
	if c := g.Counts(200*ms - 1); c.Calls != 1 {
		t.Fatalf("at 199.999 ms: %+v", c)
	}
	if c := g.Counts(200 * ms); c.Calls != 0 {
		t.Fatalf("at 200 ms: %+v (the exact deque would keep it until 200.5 ms)", c)
	}
}

func TestRetryGateValidate(t *testing.T) {
	if err := DefaultRetryGateConfig().Validate(); err != nil {
		t.Fatal(err)
	}
	for i, f := range []func(*RetryGateConfig){
		func(c *RetryGateConfig) { c.Bucket = 0 },
		func(c *RetryGateConfig) { c.Window = 0 },
		func(c *RetryGateConfig) { c.Window, c.Bucket = 201*ms, 2*ms },
		func(c *RetryGateConfig) { c.Window, c.Bucket = time.Hour, time.Microsecond },
		func(c *RetryGateConfig) { c.FailureRateThreshold = 0 },
		func(c *RetryGateConfig) { c.FailureRateThreshold = 100.5 },
	} {
		c := DefaultRetryGateConfig()
		f(&c)
		if _, err := NewRetryGate(c); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("case %d: %v, want ErrInvalidConfig", i, err)
		}
	}
}

func TestRetryGateAllocs(t *testing.T) {
	g, _ := NewRetryGate(DefaultRetryGateConfig())
	now := time.Duration(0)
	if n := testing.AllocsPerRun(1000, func() {
		now += 37 * time.Microsecond
		g.Record(now, fail)
		g.AllowRetry(now)
	}); n != 0 {
		t.Fatalf("%v allocations per record and decision", n)
	}
}

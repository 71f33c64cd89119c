package experiment

import (
	"strings"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies/breaker"
)

// withBreaker puts a breaker line on the good file's client (line 13).
func withBreaker(line string) string {
	return strings.Replace(good, "rate = 900\n", "rate = 900\ntimeout = \"100ms\"\nretry = { attempts = 3 }\n"+line+"\n", 1)
}

func TestBreakerWindowDuration(t *testing.T) {
	for _, tt := range []struct {
		line   string
		size   int
		bucket time.Duration
	}{
		{`breaker = { window = "time", window_duration = "200ms" }`, 200, time.Millisecond},
		{`breaker = { window = "time", window_duration = "1500ms" }`, 1500, time.Millisecond},
		// Whole seconds keep Resilience4j's 1 s buckets: the same model as window_size.
		{`breaker = { window = "time", window_duration = "30s" }`, 30, 0},
		{`breaker = { window = "time", window_size = 30 }`, 30, 0},
	} {
		e, err := Parse("t.toml", []byte(withBreaker(tt.line)))
		if err != nil {
			t.Fatalf("%s: %v", tt.line, err)
		}
		b := e.Model.Clients[0].Call.Guards.Breaker
		if b == nil || b.SlidingWindowType != breaker.TimeBased || b.SlidingWindowSize != tt.size || b.Bucket != tt.bucket {
			t.Errorf("%s: %+v, want %d buckets of %v", tt.line, b, tt.size, tt.bucket)
		}
	}
}

func TestRetriesOnlyBreaker(t *testing.T) {
	e, err := Parse("t.toml", []byte(withBreaker(`breaker = { placement = "retries_only" }`)))
	if err != nil {
		t.Fatal(err)
	}
	g := e.Model.Clients[0].Call.Guards
	want := breaker.DefaultRetryGateConfig()
	if g.Breaker != nil || g.BreakerInsideRetry || g.RetryBreaker == nil ||
		g.RetryBreaker.Window != want.Window || g.RetryBreaker.Bucket != want.Bucket || g.RetryBreaker.FailureRateThreshold != want.FailureRateThreshold {
		t.Fatalf("guards %+v, want the default retry gate %+v", g, want)
	}
	e, err = Parse("t.toml", []byte(withBreaker(`breaker = { placement = "retries_only", window = "time", window_duration = "2s", failure_rate = 25 }`)))
	if err != nil {
		t.Fatal(err)
	}
	if r := e.Model.Clients[0].Call.Guards.RetryBreaker; r.Window != 2*time.Second || r.Bucket != time.Second || r.FailureRateThreshold != 25 {
		t.Errorf("retry gate %+v", r)
	}
}

func TestBreakerWindowErrors(t *testing.T) {
	for _, tt := range []struct{ line, want string }{
		{`breaker = { window_duration = "200ms" }`, `t.toml:15:13: client[0].breaker.window_duration: window_duration needs window = "time"`},
		{`breaker = { window = "time", window_size = 3, window_duration = "3s" }`, `client[0].breaker.window_duration: give window_size (seconds) or window_duration, not both`},
		{`breaker = { window = "time", window_duration = "1500us" }`, `client[0].breaker.window_duration: a window that is not a whole number of seconds is kept in 1 ms buckets`},
		{`breaker = { window = "time", window_duration = "0s" }`, `client[0].breaker.window_duration: must be in [1ms`},
		{`breaker = { window = "time", window_duration = "2000000s" }`, `client[0].breaker.window_duration: a window that is not a whole number of seconds`},
		{`breaker = { placement = "retries_only", half_open_calls = 3 }`, `client[0].breaker.half_open_calls: key "half_open_calls" does not apply here; expected one of: placement, window, window_duration, failure_rate`},
		{`breaker = { placement = "retries_only", window = "count" }`, `client[0].breaker.window: placement "retries_only" keeps a time window`},
		{`breaker = { placement = "retries_only", failure_rate = 0 }`, `client[0].breaker.failure_rate: must be in (0, 100]`},
		{`breaker = { placement = "retry_only" }`, `t.toml:15:13: client[0].breaker.placement: unknown value "retry_only"; expected one of: outside_retry, inside_retry, retries_only`},
	} {
		_, err := Parse("t.toml", []byte(withBreaker(tt.line)))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s:\n got %v\nwant %q", tt.line, err, tt.want)
		}
	}
}

package retry

import (
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

// FuzzDecide drives one policy, built from fuzzed parameters, through an
// arbitrary sequence of attempt outcomes, clock advances, deadlines and
// variates, and checks the invariants every Decision must hold.
func FuzzDecide(f *testing.F) {
	f.Add(uint8(3), uint8(BackoffFullJitter), int64(50*ms), int64(2*time.Second), int64(100*ms), true, uint16(DefaultRetryOn), []byte{1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add(uint8(5), uint8(BackoffDecorrelatedJitter), int64(10*ms), int64(1*time.Second), int64(0), true, uint16(DefaultRetryOn), []byte{1, 200, 9, 1, 255, 1, 2, 9})
	f.Add(uint8(2), uint8(BackoffEqualJitter), int64(1), int64(1), int64(5), false, uint16(0xffff), []byte{0, 0, 0})
	f.Fuzz(func(t *testing.T, attempts, backoff uint8, base, cap, timeout int64, idem bool, retryOn uint16, ops []byte) {
		cfg := Config{
			MaxAttempts:    int(attempts),
			RetryOn:        OutcomeSet(retryOn),
			Idempotent:     idem,
			Backoff:        Backoff(backoff),
			Base:           time.Duration(base),
			Cap:            time.Duration(cap),
			AttemptTimeout: time.Duration(timeout),
		}
		p, err := New(cfg)
		if err != nil {
			return // invalid configs are rejected; nothing more to check
		}
		if cfg.RetryOn.Has(policies.CircuitOpen) || cfg.RetryOn.Has(policies.Success) {
			t.Fatalf("New accepted RetryOn %b", cfg.RetryOn)
		}
		maxDelay := cfg.Cap
		switch cfg.Backoff {
		case BackoffNone:
			maxDelay = 0
		case BackoffConstant:
			maxDelay = cfg.Base
		}
		var (
			c   Call
			now time.Duration
		)
		for i := 0; i+2 < len(ops); i += 3 {
			o := policies.Outcome(ops[i] % 8)
			now += time.Duration(ops[i+1]) * ms
			var deadline time.Duration
			if ops[i+2]&1 == 1 {
				deadline = now + time.Duration(ops[i+2])*10*ms
			}
			u := float64(ops[i+2]) / 256
			var hint time.Duration
			if ops[i]&0x80 != 0 { // a Retry-After hint of up to 3.1 s
				hint = time.Duration(ops[i]&0x1f) * 100 * ms
			}
			d := p.DecideAfter(now, c, o, deadline, u, hint)

			if d.Retry != (d.Reason == ReasonRetry) {
				t.Fatalf("Retry %v with reason %v", d.Retry, d.Reason)
			}
			if !d.Retry {
				if d.Next != c || d.Delay != 0 || d.At != 0 {
					t.Fatalf("refused decision changed state or set a delay: %+v", d)
				}
				if d.Deny(ReasonBudget) != d {
					t.Fatal("Deny changed a refused decision")
				}
				c = Call{} // a new call
				continue
			}
			switch {
			case o == policies.CircuitOpen || o == policies.Success || o == policies.DeadlineExceeded || o == policies.Cancelled:
				t.Fatalf("retried outcome %v", o)
			case !cfg.Idempotent:
				t.Fatal("retried a non-idempotent operation")
			case !cfg.RetryOn.Has(o):
				t.Fatalf("retried %v outside RetryOn", o)
			case d.Next.Attempts() != c.Attempts()+1 || d.Next.Attempts() > cfg.MaxAttempts:
				t.Fatalf("attempts %d -> %d with max %d", c.Attempts(), d.Next.Attempts(), cfg.MaxAttempts)
			case d.Delay < 0 || d.Delay > max(maxDelay, hint):
				t.Fatalf("delay %v outside [0, %v] (hint %v)", d.Delay, maxDelay, hint)
			case d.Delay < hint:
				t.Fatalf("delay %v shorter than the Retry-After hint %v", d.Delay, hint)
			case d.At != now+d.Delay || d.Next.PrevDelay() != d.Delay:
				t.Fatalf("At %v, PrevDelay %v for now %v delay %v", d.At, d.Next.PrevDelay(), now, d.Delay)
			case deadline != 0 && (d.At >= deadline || d.At+cfg.AttemptTimeout > deadline):
				t.Fatalf("retry at %v + timeout %v cannot finish by deadline %v", d.At, cfg.AttemptTimeout, deadline)
			}
			if cfg.Backoff == BackoffDecorrelatedJitter && d.Delay < min(cfg.Base, cfg.Cap) {
				t.Fatalf("decorrelated delay %v below base %v", d.Delay, cfg.Base)
			}
			denied := d.Deny(ReasonBudget)
			if denied.Retry || denied.Next != c || denied.Reason != ReasonBudget {
				t.Fatalf("Deny = %+v", denied)
			}
			c = d.Next
		}
	})
}

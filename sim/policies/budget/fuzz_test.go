package budget

import (
	"testing"
	"time"
)

// FuzzBucket runs arbitrary sequences of successes, retries and clock
// advances against a bucket built from fuzzed parameters. Invariants: the
// tokens are never negative and never above Capacity, the reserve stays in
// [0, max(MinRetriesPerSec, 1)], the counters add up, and the retries
// allowed never exceed what deposits, the initial bucket and the reserve
// could pay for.
func FuzzBucket(f *testing.F) {
	f.Add(0.1, 100.0, 1.0, []byte{0, 1, 1, 1, 2, 1, 0, 0})
	f.Add(0.5, 2.0, 10.0, []byte{1, 1, 1, 1, 1, 255, 1, 0, 1})
	f.Add(3.0, 1.0, 0.0, []byte{0, 0, 0, 1, 1, 1})
	f.Fuzz(func(t *testing.T, ratio, capacity, minPerSec float64, ops []byte) {
		cfg := Config{Ratio: ratio, Capacity: capacity, MinRetriesPerSec: minPerSec}
		b, err := New(cfg)
		if err != nil {
			return
		}
		burst := 0.0
		if minPerSec > 0 {
			burst = max(minPerSec, 1)
		}
		var now time.Duration
		for _, op := range ops {
			switch op % 3 {
			case 0:
				b.RecordSuccess(now)
			case 1:
				before := b.Tokens() + b.Reserve(now)
				ok := b.TryRetry(now)
				if ok && before < 1-1e-9 {
					t.Fatalf("retry allowed with %v tokens in bucket and reserve", before)
				}
			case 2:
				// Advance by up to 25.5 s, sometimes backwards (ignored).
				now += time.Duration(int(op/3)-10) * 300 * time.Millisecond
			}
			if tok := b.Tokens(); tok < 0 || tok > capacity+1e-6 {
				t.Fatalf("tokens %v outside [0, %v]", tok, capacity)
			}
			if r := b.Reserve(now); r < 0 || r > burst+1e-6 {
				t.Fatalf("reserve %v outside [0, %v]", r, burst)
			}
		}
		st := b.Stats()
		if st.FromReserve > st.Allowed {
			t.Fatalf("stats inconsistent: %+v", st)
		}
		elapsed := b.last.Seconds()
		bound := capacity + ratio*float64(st.Successes) + burst + minPerSec*elapsed + 1e-6*float64(st.Successes+1)
		if float64(st.Allowed) > bound+1e-6 {
			t.Fatalf("allowed %d retries, more than the %v that could be paid for", st.Allowed, bound)
		}
	})
}

// FuzzConcurrency checks that the retries in flight never go negative and
// that an acquisition never takes them above the limit for the active count
// given.
func FuzzConcurrency(f *testing.F) {
	f.Add(20.0, 3, []byte{1, 2, 3, 200, 0, 0, 5})
	f.Add(0.0, 0, []byte{9, 9, 0})
	f.Fuzz(func(t *testing.T, percent float64, minConc int, ops []byte) {
		c, err := NewConcurrency(ConcurrencyConfig{BudgetPercent: percent, MinRetryConcurrency: minConc})
		if err != nil {
			return
		}
		for _, op := range ops {
			if op == 0 {
				c.Release()
			} else {
				active := int(op) * 4
				before := c.InFlight()
				if c.TryAcquire(active) {
					if c.InFlight() != before+1 || c.InFlight() > c.Limit(active) {
						t.Fatalf("acquired to %d in flight, limit %d", c.InFlight(), c.Limit(active))
					}
				} else if before < c.Limit(active) {
					t.Fatalf("refused with %d in flight below limit %d", before, c.Limit(active))
				}
			}
			if c.InFlight() < 0 {
				t.Fatal("negative retries in flight")
			}
		}
	})
}

// FuzzFinagle checks, for any valid config and any non-decreasing call
// times, that a retry is allowed exactly when the balance holds one, that
// an allowed retry lowers the balance by one, and that a deposit never
// lowers it.
func FuzzFinagle(f *testing.F) {
	f.Add(int64(10), 10, 0.2, []byte{1, 2, 3, 200, 0, 0, 5})
	f.Add(int64(1), 0, 0.0, []byte{9, 9, 0})
	f.Add(int64(60), 1000, 1000.0, []byte{255, 0, 128, 64})
	f.Fuzz(func(t *testing.T, ttlSec int64, minPerSec int, pct float64, ops []byte) {
		cfg := FinagleConfig{TTL: time.Duration(ttlSec) * time.Second, MinRetriesPerSec: minPerSec, PercentCanRetry: pct}
		b, err := NewFinagle(cfg, 0)
		if err != nil {
			return
		}
		var now time.Duration
		for _, op := range ops {
			now += time.Duration(op>>1) * 37 * time.Millisecond
			before := b.Balance(now)
			if op&1 == 0 {
				b.Deposit(now)
				if b.Balance(now) < before {
					t.Fatalf("deposit at %v lowered the balance %d -> %d", now, before, b.Balance(now))
				}
				continue
			}
			ok := b.TryWithdraw(now)
			if ok != (before >= 1) || ok && b.Balance(now) != before-1 {
				t.Fatalf("withdraw at %v: ok %v, balance %d -> %d", now, ok, before, b.Balance(now))
			}
		}
	})
}

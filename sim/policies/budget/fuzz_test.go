package budget

import (
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies"
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

// FuzzQuota runs arbitrary sequences of call starts, failed attempts
// (errors, timeouts, hedges) and successes (first attempts and retries,
// each retry handing back the receipt of the last retry allowed) against
// each kind. Invariants: the tokens are never negative and never above
// the capacity, a retry is allowed only when the tokens could pay for it,
// and an allowed retry lowers the tokens by exactly its price.
func FuzzQuota(f *testing.F) {
	f.Add(uint8(0), 500, 5, 10, 1, 0.1, 5.0, []byte{1, 2, 3, 4, 5, 0, 1, 1, 1})
	f.Add(uint8(1), 12, 5, 10, 1, 0.1, 5.0, []byte{2, 2, 2, 3, 4, 0, 0, 0})
	f.Add(uint8(2), 1, 1, 1, 0, 0.5, 1.0, []byte{0, 1, 0, 1, 3, 3})
	f.Fuzz(func(t *testing.T, kind uint8, capA, retry, timeout, refund int, earn, capP float64, ops []byte) {
		var (
			q     Quota
			err   error
			limit float64
			price func(policies.Outcome) float64
			above bool // a retry needs more tokens than its price, not as many
		)
		switch kind % 3 {
		case 0:
			q, err = NewAWS(AWSConfig{Capacity: capA, RetryCost: retry, TimeoutCost: timeout, SuccessRefund: refund})
			limit = float64(capA)
			price = func(o policies.Outcome) float64 {
				if o == policies.Timeout {
					return float64(timeout)
				}
				return float64(retry)
			}
		case 1:
			q, err = NewPerCall(PerCallConfig{EarnPerCall: earn, Capacity: capP})
			limit, above = capP, true
			price = func(policies.Outcome) float64 { return 1 }
		default:
			q, err = New(Config{Ratio: earn, Capacity: capP, Earn: Earn(kind / 3 % 2)})
			limit = capP
			price = func(policies.Outcome) float64 { return 1 }
		}
		if err != nil {
			return
		}
		var paid Receipt
		for i, op := range ops {
			now := time.Duration(i) * time.Millisecond
			before := q.Tokens()
			switch op % 6 {
			case 0:
				q.CallStarted(now)
			case 1, 2, 3:
				o := [...]policies.Outcome{policies.Error, policies.Timeout, policies.Success}[op%6-1]
				ok, r := q.Withdraw(now, o)
				p := price(o)
				if _, isBucket := q.(*Bucket); isBucket {
					break // the reserve may pay: FuzzBucket checks it
				}
				if want := before >= p-1e-9 && !(above && before <= p+1e-9); ok != want {
					t.Fatalf("op %d: Withdraw(%v) = %v with %v tokens, price %v", i, o, ok, before, p)
				}
				if ok {
					paid = r
					if d := before - q.Tokens(); d < p-1e-6 || d > p+1e-6 {
						t.Fatalf("op %d: a retry of price %v took %v", i, p, d)
					}
				}
			case 4:
				q.Deposit(now, false, NoReceipt)
			case 5:
				q.Deposit(now, true, paid)
			}
			if tok := q.Tokens(); tok < 0 || tok > limit+1e-6 {
				t.Fatalf("op %d: tokens %v outside [0, %v]", i, tok, limit)
			}
		}
	})
}

package wall

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/breaker"
	"github.com/ressim/ressim/sim/policies/budget"
	"github.com/ressim/ressim/sim/policies/bulkhead"
	"github.com/ressim/ressim/sim/policies/fallback"
)

// FuzzCaller drives a Caller with every policy on a manual clock through an
// arbitrary sequence of clock moves, calls (with scripted attempts, nested
// calls, deadlines and priorities) and kill switch flips, and checks the
// invariants of the call path after every call:
//
//   - Do's error is nil exactly when the call was answered (by an attempt or
//     by a fallback level), and otherwise an *Error whose Attempts is the
//     number of attempts fn saw, at most MaxAttempts;
//   - a call refused before any attempt has a local outcome (or Rejected
//     from shedding);
//   - a call ended by the breaker leaves the breaker not closed;
//   - nothing stays in flight: no bulkhead slot, no waiter, no count, no
//     retry held in the concurrency budget (the breaker sits outside or
//     inside the retry loop, by the input's length);
//   - every attempt's context deadline is at most the per-attempt timeout
//     away, and never beyond the request's deadline;
//   - the retry budget's tokens stay within [0, Capacity].
func FuzzCaller(f *testing.F) {
	f.Add([]byte{1, 0, 9, 17, 3, 3, 3, 3, 0, 200, 1, 1})
	f.Add([]byte{6, 6, 2, 130, 5, 5, 5, 7, 1, 2, 7, 0, 255})
	f.Add([]byte{4, 44, 44, 4, 124, 3, 203, 3, 3, 1, 0, 88, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		const (
			maxAttempts = 3
			attemptTO   = 50 * time.Millisecond
			budgetCap   = 2
		)
		clock := NewManualClock(0)
		bc := testBreaker()
		bc.SlidingWindowSize, bc.MinimumNumberOfCalls = 6, 3
		fbServe := false
		c, err := New(Config{
			Clock:            clock,
			Rand:             rand.New(rand.NewPCG(3, 4)),
			Shed:             shedConfig(),
			ShedCapacity:     3,
			Bulkhead:         &bulkhead.SemaphoreConfig{MaxConcurrentCalls: 2},
			Breaker:          bc,
			Placement:        Placement(len(data) % 2), // either placement
			Retry:            noBackoff(maxAttempts),
			Budget:           budgetConfig(budgetCap, 0.5),
			RetryConcurrency: &budget.ConcurrencyConfig{BudgetPercent: 50, MinRetryConcurrency: 1},
			Timeout:          timeoutConfig(attemptTO),
			Fallback: &Fallback{
				Feature: fallback.DefaultConfig(),
				Serve: func(context.Context, fallback.Level, error) error {
					if fbServe {
						return nil
					}
					return errFail
				},
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		next := func() byte {
			if len(data) == 0 {
				return 0
			}
			b := data[0]
			data = data[1:]
			return b
		}

		var call func(depth int, op byte)
		call = func(depth int, op byte) {
			start := clock.Now()
			ctx := WithPriority(context.Background(), policies.Priority(op%3))
			var dl time.Duration = -1
			if op&0x80 != 0 {
				dl = start + time.Duration(op>>3&0xf)*20*time.Millisecond
				var cancel context.CancelFunc
				ctx, cancel = clock.WithDeadline(ctx, dl)
				defer cancel()
			}
			fbServe = op&0x40 != 0
			attempts, lastOK := 0, false
			fn := func(actx context.Context) error {
				attempts++
				now := clock.Now()
				d, ok := actx.Deadline()
				if !ok {
					t.Fatal("attempt without a deadline despite the per-attempt timeout")
				}
				if at := clock.Instant(d); at > now+attemptTO || (dl >= 0 && at > dl) {
					t.Fatalf("attempt deadline %v: beyond now %v + %v or the request's %v", at, now, attemptTO, dl)
				}
				b := next()
				lastOK = false
				switch b % 6 {
				case 0:
					lastOK = true
					return nil
				case 1:
					return errFail
				case 2:
					return &RejectedError{StatusCode: 503}
				case 3: // hang until the attempt's timeout
					clock.Advance(attemptTO)
					return actx.Err()
				case 4:
					if depth < 2 {
						call(depth+1, next())
					}
					lastOK = true
					return nil
				default:
					clock.Advance(time.Duration(b>>3) * time.Millisecond)
					if actx.Err() != nil {
						return actx.Err()
					}
					lastOK = true
					return nil
				}
			}
			level, err := c.DoLevel(ctx, fn)

			answered := lastOK || (level >= fallback.Stale && level <= fallback.Empty)
			if (err == nil) != answered {
				t.Fatalf("DoLevel = %v, %v; last attempt ok %v", level, err, lastOK)
			}
			if err != nil {
				var e *Error
				if !errors.As(err, &e) {
					t.Fatalf("error %T %v is not an *Error", err, err)
				}
				if e.Attempts != attempts || e.Attempts > maxAttempts {
					t.Fatalf("Error.Attempts %d, fn saw %d (max %d)", e.Attempts, attempts, maxAttempts)
				}
				if e.Attempts == 0 && !e.Outcome.IsLocal() && e.Outcome != policies.Rejected {
					t.Fatalf("refused before any attempt with outcome %v", e.Outcome)
				}
				if e.Outcome == policies.CircuitOpen {
					if s, _ := c.BreakerState(); s == breaker.Closed {
						t.Fatal("ended by the breaker, which is closed")
					}
				}
			} else if lastOK && attempts == 0 {
				t.Fatal("success without an attempt")
			}
			if attempts > maxAttempts {
				t.Fatalf("%d attempts, max %d", attempts, maxAttempts)
			}
		}

		for len(data) > 0 {
			op := next()
			switch op % 8 {
			case 0:
				clock.Advance(time.Duration(op>>3) * 100 * time.Millisecond)
			case 7:
				if op&8 != 0 {
					c.Kill("fuzz")
				} else {
					c.Revive("fuzz")
				}
			default:
				call(0, op)
			}
			c.mu.Lock()
			inFlight, inUse, waiting, waiters := c.inFlight, c.bulk.InUse(), c.bulk.Waiting(), len(c.waiters)
			tokens, retries := c.budget.Tokens(), c.conc.InFlight()
			c.mu.Unlock()
			if inFlight != 0 || inUse != 0 || waiting != 0 || waiters != 0 || retries != 0 {
				t.Fatalf("left behind: %d in flight, %d slots, %d waiting, %d waiter channels, %d retries", inFlight, inUse, waiting, waiters, retries)
			}
			if tokens < 0 || tokens > budgetCap {
				t.Fatalf("budget tokens %v outside [0, %d]", tokens, budgetCap)
			}
		}
	})
}

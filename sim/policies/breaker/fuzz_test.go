package breaker

import (
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

// FuzzBreaker drives a breaker with an arbitrary sequence of operations and
// checks its invariants after each one: never more half-open probes in
// flight than the quota; window counts equal to a naive recount of the
// recorded calls; states, pauses and generations consistent.
func FuzzBreaker(f *testing.F) {
	f.Add([]byte{0, 4, 3, 2, 1, 1, 1, 1, 1, 1, 1, 1, 0, 200, 1, 1, 1, 2, 2, 2})
	f.Add([]byte{1, 2, 2, 1, 1, 1, 1, 3, 0, 255, 0, 255, 1, 1, 1, 1, 4, 4, 4, 5})
	f.Add([]byte{0, 0, 0, 0, 1, 2, 1, 3, 1, 2, 0, 9, 5, 1, 3, 1, 3, 1, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 4 {
			return
		}
		cfg := testConfig()
		if data[0]&1 == 1 {
			cfg.SlidingWindowType = TimeBased
		}
		if data[0]&2 == 2 {
			cfg.Bucket = 7 * ms // sub-second buckets, not a divisor of the 20 ms steps
		}
		cfg.SlidingWindowSize = 1 + int(data[1]%12)
		cfg.MinimumNumberOfCalls = 1 + int(data[2]%15)
		cfg.PermittedNumberOfCallsInHalfOpenState = 1 + int(data[3]%4)
		quota := cfg.PermittedNumberOfCallsInHalfOpenState
		b, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		type rec struct {
			epoch int64
			k     class
		}
		var (
			now     time.Duration
			permits []Permit
			model   []rec // calls recorded while closed since the last close
			inHalf  int   // probes admitted and not given back, by this test's count
			tripAt  time.Duration
		)
		data = data[4:]
		next := func() byte {
			if len(data) == 0 {
				return 0
			}
			c := data[0]
			data = data[1:]
			return c
		}
		for len(data) > 0 {
			before := b.state
			gen := b.gen
			var tr Transition
			var moved bool
			switch next() % 6 {
			case 0: // let time pass
				now += time.Duration(next()) * 20 * ms
			case 1: // allow
				if st := b.State(now); st != before {
					before, gen = st, b.gen
					inHalf = 0
				}
				p, ok := b.Allow(now)
				if ok != (before == Closed || (before == HalfOpen && inHalf < quota)) {
					t.Fatalf("Allow in %v with %d probes admitted = %v", before, inHalf, ok)
				}
				if ok {
					if before == HalfOpen {
						inHalf++
					}
					permits = append(permits, p)
					if len(permits) > 8 {
						permits = permits[1:]
					}
				}
			case 2, 3: // record the oldest or the newest permit
				if len(permits) == 0 {
					continue
				}
				i := 0
				if next()%2 == 1 {
					i = len(permits) - 1
				}
				p := permits[i]
				permits = append(permits[:i], permits[i+1:]...)
				o := policies.Outcome(next() % 8)
				lat := time.Duration(next()) * ms
				tr, moved = b.Record(now, p, o, lat)
				if p.gen == gen && before == Closed && !o.IsLocal() {
					k := success
					if o.IsFailure() {
						k = failure
					} else if lat > cfg.SlowCallDurationThreshold {
						k = slow
					}
					model = append(model, rec{epochOf(now, cfg.bucket()), k})
				}
				if p.gen == gen && before == HalfOpen && o.IsLocal() {
					inHalf--
				}
				if p.gen != gen && moved {
					t.Fatalf("stale permit (gen %d, breaker %d) caused %+v", p.gen, gen, tr)
				}
			case 4:
				tr, moved = b.Refresh(now)
			case 5:
				b.State(now)
			}
			if moved {
				if tr.From != before || tr.To == tr.From || tr.At != now || b.gen != gen+1 {
					t.Fatalf("bad transition %+v from %v (gen %d -> %d)", tr, before, gen, b.gen)
				}
				if tr.To == Closed {
					model = model[:0]
				}
				if tr.From == Closed {
					c := b.Counts(now)
					if c.Calls < b.minCalls {
						t.Fatalf("tripped with %d calls, minimum %d", c.Calls, b.minCalls)
					}
				}
				inHalf = 0
			}
			if b.state != before && !moved {
				// A lazy open to half-open move inside State.
				if before != Open || b.state != HalfOpen {
					t.Fatalf("silent move %v -> %v", before, b.state)
				}
				inHalf = 0
			}
			// Probe accounting.
			a, s := b.Probes()
			if a > quota || s > a || a < 0 || (b.state != HalfOpen && (a != 0 || s != 0)) {
				t.Fatalf("probes admitted %d succeeded %d quota %d in %v", a, s, quota, b.state)
			}
			if b.state == HalfOpen && a != inHalf {
				t.Fatalf("probes admitted %d, test counted %d", a, inHalf)
			}
			// State, trips and pause.
			at, ok := b.NextProbeAt()
			if ok != (b.state == Open) {
				t.Fatalf("NextProbeAt ok=%v in %v", ok, b.state)
			}
			if (b.state == Closed) != (b.trips == 0) {
				t.Fatalf("trips %d in %v", b.trips, b.state)
			}
			if moved && tr.To == Open {
				tripAt = now
			}
			if p := at - tripAt; ok && (p < cfg.WaitDurationInOpenState || p > cfg.MaxWaitDurationInOpenState) {
				t.Fatalf("open pause %v outside [%v, %v]", p, cfg.WaitDurationInOpenState, cfg.MaxWaitDurationInOpenState)
			}
			// Window counts against a naive recount.
			c := b.Counts(now)
			var want Counts
			if cfg.SlidingWindowType == CountBased {
				start := max(0, len(model)-cfg.SlidingWindowSize)
				for _, r := range model[start:] {
					want.add(r.k, 1)
				}
			} else {
				e := epochOf(now, cfg.bucket())
				for _, r := range model {
					if r.epoch > e-int64(cfg.SlidingWindowSize) {
						want.add(r.k, 1)
					}
				}
			}
			if c != want {
				t.Fatalf("counts %+v, recount %+v (model %d calls)", c, want, len(model))
			}
		}
	})
}

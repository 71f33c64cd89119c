package hedge

import (
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

// FuzzHedge drives one policy, built from fuzzed parameters, through an
// arbitrary sequence of events (due timers, copy outcomes, per-try
// timeouts, budget refusals, clock advances) for a series of calls, and
// checks the invariants every decision must hold: never more than
// MaxAttempts copies, no copy sent after the call is done, exactly one
// final result per call, and in-flight counts that match a model kept by the
// test.
func FuzzHedge(f *testing.F) {
	f.Add(uint8(3), int64(10*ms), uint16(nonFata), uint8(1), uint8(10), false, []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})
	f.Add(uint8(5), int64(0), uint16(0), uint8(2), uint8(0), true, []byte{1, 9, 17, 2, 3, 0, 0, 4})
	f.Add(uint8(4), int64(Never), uint16(nonFatalAllowed), uint8(1), uint8(255), true, []byte{2, 10, 2, 26, 3, 1, 1, 1, 1})
	f.Fuzz(func(t *testing.T, attempts uint8, delay int64, nonFatal uint16, initial, chance uint8, onPTT bool, ops []byte) {
		cfg := Config{
			MaxAttempts:      int(attempts),
			Delay:            time.Duration(delay),
			NonFatal:         OutcomeSet(nonFatal),
			InitialRequests:  int(initial),
			AdditionalChance: float64(chance) / 255,
			OnPerTryTimeout:  onPTT,
		}
		p, err := New(cfg)
		if err != nil {
			return
		}
		var (
			now    time.Duration
			c      Call
			model  int // copies in flight, by the test's count
			finals int // final results of the current call
			limit  = -1
		)
		check := func(ev string, d Decision) {
			t.Helper()
			n := d.Next
			switch {
			case n.Sent() > cfg.MaxAttempts:
				t.Fatalf("%s: %d copies sent, max %d", ev, n.Sent(), cfg.MaxAttempts)
			case (d.Action == Send) != (d.Send > 0) || d.Hedges > d.Send || d.Hedges < 0:
				t.Fatalf("%s: action %v with %d copies, %d hedges", ev, d.Action, d.Send, d.Hedges)
			case c.Done() && (d.Action != Wait || d.Reason != ReasonIgnored || n != c):
				t.Fatalf("%s: decision %+v after the call was done", ev, d)
			case d.Action.Done() != (n.Done() && !c.Done()):
				t.Fatalf("%s: action %v, done %v -> %v", ev, d.Action, c.Done(), n.Done())
			case d.NextAt != n.NextAt() || (d.NextAt != Never && d.NextAt < now && d.Reason != ReasonNotDue):
				t.Fatalf("%s: NextAt %v (state %v) at %v", ev, d.NextAt, n.NextAt(), now)
			case n.Started() && !n.Done() && n.InFlight() < 1:
				t.Fatalf("%s: a live call with no copy in flight", ev)
			case d.Cancel != 0 && (!d.Action.Done() || d.Cancel != n.InFlight()-1 && d.Reason != ReasonExhausted && d.Reason != ReasonThrottled):
				t.Fatalf("%s: cancel %d with action %v, %d in flight", ev, d.Cancel, d.Action, n.InFlight())
			case d.Action == Succeed && d.Outcome != policies.Success,
				d.Action == Fail && d.Outcome == policies.Success:
				t.Fatalf("%s: action %v with outcome %v", ev, d.Action, d.Outcome)
			}
			if d.Action.Done() {
				finals++
			}
			if finals > 1 {
				t.Fatalf("%s: a second final result", ev)
			}
			model += d.Send
			if !n.Done() && n.InFlight() != model {
				t.Fatalf("%s: %d in flight, the model counts %d", ev, n.InFlight(), model)
			}
			c = n
		}
		apply := func(d Decision) Decision {
			if limit >= 0 {
				d = d.Limit(limit)
				limit = -1
			}
			return d
		}
		start := func() {
			c, model, finals = Call{}, 0, 0
			check("start", apply(p.Start(now, c, float64(now%1000)/1000)))
		}
		start()
		for _, op := range ops {
			arg := op >> 3
			switch op & 7 {
			case 0, 1: // the next hedge's timer, on time or early
				at := c.NextAt()
				if at == Never || op&1 == 1 {
					at = now + time.Duration(arg)*ms
				}
				now = max(now, at)
				check("due", apply(p.Due(now, c)))
			case 2, 3: // a copy ends
				o := policies.Outcome(arg % 8)
				live := c.Started() && !c.Done()
				d := apply(p.Outcome(now, c, o))
				if live && d.Reason != ReasonIgnored && d.Action != Succeed && d.Action != Fail {
					model-- // a non-fatal failure ended one copy
				}
				check("outcome "+o.String(), d)
			case 4: // a per-try timeout
				live := c.Started() && !c.Done()
				d := apply(p.PerTryTimeout(now, c))
				if live && !d.Keep && d.Reason != ReasonIgnored && !d.Action.Done() {
					model--
				}
				check("per-try timeout", d)
			case 5: // the budget allows only arg%3 of the next decision's hedges
				limit = int(arg % 3)
			case 6:
				now += time.Duration(arg) * ms
			case 7: // finish this call with a success and start the next
				if !c.Done() {
					check("success", p.Outcome(now, c, policies.Success))
				}
				if finals != 1 {
					t.Fatalf("call ended with %d final results", finals)
				}
				start()
			}
		}
		if !c.Done() {
			check("success", p.Outcome(now, c, policies.Success))
		}
		if finals != 1 {
			t.Fatalf("call ended with %d final results", finals)
		}
	})
}

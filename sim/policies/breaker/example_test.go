package breaker_test

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/breaker"
)

// A dependency fails every call from t = 0; the breaker trips after 20 calls,
// refuses calls for 15 s, admits 3 probes, and closes when they succeed.
func Example() {
	b, err := breaker.New(breaker.DefaultConfig())
	if err != nil {
		panic(err)
	}
	show := func(tr breaker.Transition, ok bool) {
		if ok {
			fmt.Printf("%v: %v -> %v (%v, trips %d)\n", tr.At, tr.From, tr.To, tr.Reason, tr.Trips)
		}
	}
	now := time.Duration(0)
	for range 20 {
		now += 10 * time.Millisecond
		if p, ok := b.Allow(now); ok {
			show(b.Record(now+5*time.Millisecond, p, policies.Error, 5*time.Millisecond))
		}
	}
	at, _ := b.NextProbeAt()
	_, ok := b.Allow(at - time.Millisecond)
	fmt.Println("admitted just before the pause ends:", ok)

	show(b.Refresh(at)) // the caller scheduled this for NextProbeAt
	var permits []breaker.Permit
	for range 4 {
		if p, ok := b.Allow(at); ok {
			permits = append(permits, p)
		}
	}
	fmt.Println("probes admitted:", len(permits))
	for _, p := range permits {
		show(b.Record(at+20*time.Millisecond, p, policies.Success, 20*time.Millisecond))
	}
	// Output:
	// 205ms: closed -> open (failure_rate, trips 1)
	// admitted just before the pause ends: false
	// 15.205s: open -> half_open (pause_elapsed, trips 1)
	// probes admitted: 3
	// 15.225s: half_open -> closed (probes_succeeded, trips 0)
}

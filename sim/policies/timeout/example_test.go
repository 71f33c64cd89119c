package timeout_test

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/policies/timeout"
)

func Example() {
	// Check a chain, outermost first: the gateway waits 1 s, the service
	// behind it retries its database 3 times with a 500 ms timeout.
	vs, err := timeout.CheckChain([]timeout.Hop{
		{Name: "client", Timeout: 2 * time.Second},
		{Name: "gateway", Timeout: 1 * time.Second},
		{Name: "service", Timeout: 500 * time.Millisecond, Attempts: 3, Backoff: 100 * time.Millisecond},
		{Name: "db"},
	})
	if err != nil {
		panic(err)
	}
	for _, v := range vs {
		fmt.Println(v)
	}

	// Size the database call's timeout from its p99.9 of 300 ms.
	s := timeout.DefaultSizing()
	rec, _ := s.Recommend(300 * time.Millisecond)
	fmt.Println("recommended:", rec)
	fmt.Println("10s timeout:", s.Assess(10*time.Second, 300*time.Millisecond))
	fmt.Println("slots held at 1000 req/s when it hangs:", timeout.DeadSlots(1000, 10*time.Second), "vs", timeout.DeadSlots(1000, rec))

	// Apply it to one attempt that starts 600 ms into an 800 ms request.
	p, _ := timeout.New(timeout.Config{Attempt: rec})
	fmt.Println("attempt times out at:", p.ExpiresAt(600*time.Millisecond, 800*time.Millisecond))
	// Output:
	// gateway -> service: timeout 1s does not cover service -> db retries 3*500ms + 100ms = 1.6s
	// recommended: 450ms
	// 10s timeout: timeout.Assess: timeout 10s is 33.3 x p99.9 300ms (max 3 x): a failing dependency holds every slot that long
	// slots held at 1000 req/s when it hangs: 10000 vs 450
	// attempt times out at: 800ms
}

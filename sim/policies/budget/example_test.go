package budget_test

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/policies/budget"
)

// A dependency goes down completely. The retry budget's 100 tokens pay for
// the first 100 retries; after that only the reserve of 1 retry per second
// lets retries through, whatever the request rate.
func Example() {
	bud, err := budget.New(budget.DefaultConfig()) // ratio 0.1, capacity 100, 1/s
	if err != nil {
		panic(err)
	}
	allowed := 0
	for i := range 10_000 { // 1000 failing requests per second for 10 s
		now := time.Duration(i) * time.Millisecond
		if bud.TryRetry(now) {
			allowed++
		}
	}
	fmt.Println("retries allowed in 10 s of total failure:", allowed)
	fmt.Printf("stats: %+v\n", bud.Stats())

	// The dependency recovers: 1000 successes deposit 100 tokens.
	for i := range 1000 {
		bud.RecordSuccess(10*time.Second + time.Duration(i)*time.Millisecond)
	}
	fmt.Println("tokens after 1000 successes:", bud.Tokens())

	// Envoy's form: at most 20 % of 50 active requests may be retries.
	conc, err := budget.NewConcurrency(budget.DefaultConcurrencyConfig())
	if err != nil {
		panic(err)
	}
	fmt.Println("Envoy limit for 50 active requests:", conc.Limit(50), "for 5:", conc.Limit(5))
	// Output:
	// retries allowed in 10 s of total failure: 110
	// stats: {Successes:0 Allowed:110 FromReserve:10 Denied:9890}
	// tokens after 1000 successes: 100
	// Envoy limit for 50 active requests: 10 for 5: 3
}

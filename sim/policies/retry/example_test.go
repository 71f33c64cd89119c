package retry_test

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/retry"
)

// A call whose dependency fails twice and then answers, under the source's
// defaults: 3 attempts, full jitter, base 50 ms, cap 2 s, a 100 ms attempt
// timeout and an 800 ms deadline for the whole request.
func Example() {
	cfg := retry.DefaultConfig()
	cfg.AttemptTimeout = 100 * time.Millisecond
	pol, err := retry.New(cfg)
	if err != nil {
		panic(err)
	}
	rng := rand.New(rand.NewPCG(1, 2)) // owned by the caller
	deadline := 800 * time.Millisecond

	var call retry.Call
	now := time.Duration(0)
	for _, o := range []policies.Outcome{policies.Timeout, policies.Error, policies.Success} {
		now += 100 * time.Millisecond // the attempt ran for its timeout
		d := pol.Decide(now, call, o, deadline, rng.Float64())
		fmt.Printf("attempt %d ended %v at %v: %v", call.Attempts(), o, now.Round(time.Millisecond), d.Reason)
		if d.Retry {
			fmt.Printf(", next attempt at %v", d.At.Round(time.Millisecond))
			now, call = d.At, d.Next
		}
		fmt.Println()
	}
	fmt.Println("worst case:", pol.WorstCase(), "fits 800ms:", pol.Fits(deadline) == nil)
	fmt.Println("3 layers of 3 attempts:", retry.Amplification(3, 3, 3), "calls")
	// Output:
	// attempt 1 ended timeout at 100ms: retry, next attempt at 134ms
	// attempt 2 ended error at 234ms: retry, next attempt at 280ms
	// attempt 3 ended success at 380ms: success
	// worst case: 6.3s fits 800ms: false
	// 3 layers of 3 attempts: 27 calls
}

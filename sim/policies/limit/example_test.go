package limit_test

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/limit"
)

// An AIMD limit with the numbers of «Устойчивость: circuit breaker, retry,
// bulkhead, backpressure, деградация», section 6, behind a Limiter: a slow
// call (300 ms > 250 ms) cuts the limit from 20 to 18.
func Example() {
	alg, err := limit.NewAIMD(limit.DefaultAIMDConfig())
	if err != nil {
		panic(err)
	}
	lim, _ := limit.NewLimiter(alg)

	var toks []limit.Token
	for i := 0; i < 21; i++ {
		if tok, ok := lim.Acquire(0); ok {
			toks = append(toks, tok)
		} else {
			fmt.Printf("call %d rejected: %d in flight, limit %d\n", i, lim.Inflight(), lim.Limit())
		}
	}
	tr := lim.Release(300*time.Millisecond, toks[0], policies.Success)
	fmt.Printf("at %v the limit went %d -> %d\n", tr.At, tr.From, tr.To)
	// Output:
	// call 20 rejected: 20 in flight, limit 20
	// at 300ms the limit went 20 -> 18
}

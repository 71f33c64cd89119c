package codel_test

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/policies/codel"
)

// A service dequeues requests that have been waiting 30 ms, well above
// CoDel's 5 ms target: CoDel lets them through for one interval (100 ms),
// then drops, with drops coming closer together (100 ms, 70.7 ms, 57.7 ms,
// ...) until the queue's sojourn time falls below the target.
func Example() {
	c, err := codel.New(codel.DefaultConfig())
	if err != nil {
		panic(err)
	}
	const ms = time.Millisecond
	backlog := 100
	for now := time.Duration(0); now <= 400*ms; now += 10 * ms {
		// The caller's loop: dequeue, ask, drop and ask again, or serve.
		for {
			enqueued := now - 30*ms
			backlog--
			if c.Dequeue(now, enqueued, backlog) == codel.Deliver {
				break
			}
			fmt.Printf("%v: dropped (count %d)\n", now, c.Count())
		}
		backlog++ // one arrival per tick keeps the backlog steady
	}
	// Output:
	// 100ms: dropped (count 1)
	// 200ms: dropped (count 2)
	// 280ms: dropped (count 3)
	// 330ms: dropped (count 4)
	// 380ms: dropped (count 5)
}

package lifo_test

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/policies/lifo"
)

// A queue that drains is served FIFO. One that has not been empty for more
// than N = 100 ms is served LIFO, and its new requests get M = 5 ms to be
// picked up. The old requests, which their clients have likely given up
// on, are dropped from the old end.
func Example() {
	const ms = time.Millisecond
	never := time.Duration(1<<63 - 1)
	q, err := lifo.NewAdaptiveQueue[string](16, lifo.DefaultConfig())
	if err != nil {
		panic(err)
	}
	q.Push(0, "r1", never)
	q.Push(1*ms, "r2", never)
	e, r := q.Next(2 * ms)
	fmt.Println(q.Mode(2*ms), r, e.Value)

	// Arrivals outpace service: the queue never empties.
	q.Push(50*ms, "r3", never)
	q.Push(120*ms, "r4", never) // the queue has not been empty since 0: 5 ms timeout
	q.Push(121*ms, "r5", never)
	for {
		e, r := q.Next(122 * ms)
		fmt.Println(q.Mode(122*ms), r, e.Value)
		if r != lifo.Expired {
			break
		}
	}
	// Output:
	// fifo deliver r1
	// lifo expired r2
	// lifo deliver r5
}

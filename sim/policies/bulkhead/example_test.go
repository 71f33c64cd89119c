package bulkhead_test

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/policies/bulkhead"
)

// Size a bulkhead by Little's law, let callers wait for a slot at most
// 10 ms, and hand a freed slot to the oldest live waiter.
func Example() {
	slots, err := bulkhead.SizeByLittlesLaw(200, 50*time.Millisecond, 2)
	if err != nil {
		panic(err)
	}
	fmt.Println("slots:", slots)

	b, err := bulkhead.NewSemaphore(bulkhead.SemaphoreConfig{
		MaxConcurrentCalls: slots,
		MaxWaitDuration:    10 * time.Millisecond,
	})
	if err != nil {
		panic(err)
	}
	for range slots {
		b.Acquire(0, bulkhead.NoDeadline)
	}
	a1 := b.Acquire(1*time.Millisecond, bulkhead.NoDeadline)
	a2 := b.Acquire(2*time.Millisecond, 5*time.Millisecond) // deadline sooner than the wait bound
	fmt.Println(a1.Decision, a1.Ticket, a1.WaitUntil)
	fmt.Println(a2.Decision, a2.Ticket, a2.WaitUntil)

	if g, ok := b.Release(4 * time.Millisecond); ok {
		fmt.Printf("ticket %d got a slot after %v\n", g.Ticket, g.Waited)
	}
	// The caller's timer for ticket 2 fires at its WaitUntil.
	if o, ok := b.Expire(5*time.Millisecond, a2.Ticket); ok {
		fmt.Println("ticket 2 fails:", o)
	}
	// The stale timer for ticket 1, already granted, is harmless.
	_, ok := b.Expire(11*time.Millisecond, a1.Ticket)
	fmt.Println("ticket 1 expired:", ok, "in use:", b.InUse())
	// Output:
	// slots: 20
	// queued 1 11ms
	// queued 2 5ms
	// ticket 1 got a slot after 3ms
	// ticket 2 fails: deadline_exceeded
	// ticket 1 expired: false in use: 20
}

package deadline_test

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/policies/deadline"
)

// The source's handle_checkout: the user gives the request 800 ms. Pricing
// is critical and gets everything left minus a 50 ms reserve;
// recommendations are not, and get at most 80 ms.
func Example() {
	pol, err := deadline.New(deadline.DefaultConfig())
	if err != nil {
		panic(err)
	}
	d := deadline.After(0, 800*time.Millisecond)

	now := 120 * time.Millisecond // parsing, auth, ...
	pricing, ok := pol.Slice(d, now, deadline.Critical)
	fmt.Println("pricing timeout:", pricing, ok)

	now += 300 * time.Millisecond // pricing answered
	recs, ok := pol.Slice(d, now, deadline.NonCritical)
	fmt.Println("recommendations timeout:", recs, ok)

	child, _ := pol.Propagate(d, now, deadline.NonCritical)
	fmt.Println("recommendations' own deadline expires at:", child.Instant())

	now = 760 * time.Millisecond
	_, ok = pol.Slice(d, now, deadline.Critical)
	fmt.Println("at 760ms a critical call may be sent:", ok, "- expired:", d.Expired(now))
	// Output:
	// pricing timeout: 630ms true
	// recommendations timeout: 80ms true
	// recommendations' own deadline expires at: 500ms
	// at 760ms a critical call may be sent: false - expired: false
}

package outlier_test

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/outlier"
)

// Four hosts; hosts 0, 1 and 2 start failing. Two are ejected, the third
// is spared by max_ejection_percent 50, and the ejected hosts come back at
// the first sweep after 30 s.
func Example() {
	d, err := outlier.New(outlier.DefaultConfig(), 4, 0)
	if err != nil {
		panic(err)
	}
	now := 1 * time.Second
	for _, h := range []int{0, 1, 2} {
		for range 5 {
			if e, ok := d.Record(now, h, policies.Error); ok {
				fmt.Printf("%v: host %d %v (%v) for %v\n", e.At, e.Host, e.Kind, e.Reason, e.EjectedFor)
			}
		}
	}
	fmt.Println("balancer may use host 0:", !d.Ejected(0), "host 2:", !d.Ejected(2))
	at, _ := d.NextUnejectAt()
	fmt.Println("next un-ejection at", at)

	var events []outlier.Event
	for d.EjectedCount() > 0 {
		events = d.Tick(d.NextTickAt(), events[:0])
		for _, e := range events {
			fmt.Printf("%v: host %d %v\n", e.At, e.Host, e.Kind)
		}
	}
	// Output:
	// 1s: host 0 ejected (consecutive_5xx) for 30s
	// 1s: host 1 ejected (consecutive_5xx) for 30s
	// 1s: host 2 overflow (consecutive_5xx) for 0s
	// balancer may use host 0: false host 2: true
	// next un-ejection at 40s
	// 40s: host 0 unejected
	// 40s: host 1 unejected
}

package shed_test

import (
	"fmt"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/shed"
)

// A service with 200 handlers fills up; classes are shed bottom-up, and a
// shed request is told to come back later instead of waiting for nothing.
func Example() {
	s, err := shed.New(shed.DefaultConfig())
	if err != nil {
		panic(err)
	}
	for _, busy := range []int{50, 120, 170, 200} {
		fmt.Printf("%3d/200 busy:", busy)
		for p := policies.Critical; p < policies.NumPriorities; p++ {
			d := s.Admit(0, p, busy, 200)
			if d.Admitted {
				fmt.Printf(" %s=ok", p)
			} else {
				fmt.Printf(" %s=%d(retry %v)", p, d.Status, d.RetryAfter)
			}
		}
		fmt.Println()
	}
	st := s.Stats()
	fmt.Println("shed background:", st.Shed[policies.Background], "critical:", st.Shed[policies.Critical])
	// Output:
	//  50/200 busy: critical=ok normal=ok background=ok
	// 120/200 busy: critical=ok normal=ok background=503(retry 1s)
	// 170/200 busy: critical=ok normal=503(retry 1s) background=503(retry 1s)
	// 200/200 busy: critical=503(retry 1s) normal=503(retry 1s) background=503(retry 1s)
	// shed background: 3 critical: 1
}

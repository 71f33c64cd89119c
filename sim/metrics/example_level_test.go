package metrics_test

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/metrics"
)

func ExampleLevel() {
	ms := int64(time.Millisecond)
	var inSystem metrics.Level // requests in the system; 0 since instant 0
	inSystem.Add(0*ms, 1)      // request A arrives
	inSystem.Add(10*ms, 1)     // request B arrives
	inSystem.Add(30*ms, -1)    // A leaves after 30 ms
	inSystem.Add(40*ms, -1)    // B leaves after 30 ms
	now := 60 * ms
	// Little's law on this sample path: L = lambda * W = (2 / 60 ms) * 30 ms = 1.
	fmt.Printf("L = %.4f, max %v, area %v req*ms\n",
		inSystem.Mean(now), inSystem.Max(), inSystem.Area(now)/float64(ms))
	inSystem.Reset(now) // next interval
	fmt.Println(inSystem.Mean(now + 10*ms))
	// Output:
	// L = 1.0000, max 2, area 60 req*ms
	// 0
}

package metrics_test

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/metrics"
)

func ExampleHistogram() {
	h, err := metrics.NewHistogram(metrics.DefaultPrecisionBits)
	if err != nil {
		panic(err)
	}
	// 98 fast calls of 20 ms and 2 slow ones of 5 s: the mean hides the tail.
	h.RecordN(int64(20*time.Millisecond), 98)
	h.RecordN(int64(5*time.Second), 2)
	fmt.Println("count", h.Count())
	fmt.Println("mean ", time.Duration(h.Mean()))
	fmt.Println("p50  ", time.Duration(h.Quantile(0.50)))
	fmt.Println("p99  ", time.Duration(h.Quantile(0.99)))
	fmt.Println("max  ", time.Duration(h.Max()))
	// Output:
	// count 100
	// mean  119.6ms
	// p50   20ms
	// p99   5s
	// max   5s
}

func ExampleHistogram_Merge() {
	var run1, run2 metrics.Histogram // zero value: DefaultPrecisionBits
	run1.Record(1_000)
	run2.Record(3_000)
	if err := run1.Merge(&run2); err != nil {
		panic(err)
	}
	fmt.Println(run1.Count(), run1.Min(), run1.Max(), run1.Mean())
	// Output: 2 1000 3000 2000
}

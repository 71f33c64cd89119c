package analysis_test

import (
	"fmt"

	"github.com/ressim/ressim/sim/analysis"
)

// Goodput (requests per second) of five replications of one variant.
func ExampleSummarize() {
	goodput := []float64{912, 955, 931, 948, 940}
	s := analysis.Summarize(goodput)
	fmt.Printf("N=%d mean=%.1f SD=%.2f SE=%.2f 95%% CI=[%.1f, %.1f]\n",
		s.N, s.Mean, s.SD, s.SE, s.CI95.Lo, s.CI95.Hi)

	one := analysis.Summarize([]float64{912})
	fmt.Println("one replication:", one.Defined, one.CI95.Lo, one.CI95.Hi)
	// Output:
	// N=5 mean=937.2 SD=16.69 SE=7.47 95% CI=[916.5, 957.9]
	// one replication: false -Inf +Inf
}

// p99 latency (seconds) of a base configuration and of a variant with a
// retry budget, replication i of both run with seed i (common random
// numbers).
func ExamplePaired() {
	base := []float64{2.31, 1.87, 2.95, 2.12, 2.60, 1.98}
	variant := []float64{2.05, 1.70, 2.61, 1.93, 2.41, 1.80}
	d, err := analysis.Paired(base, variant)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("variant - base: %.3f s, 95%% CI [%.3f, %.3f], significant: %v\n",
		d.Mean, d.CI95.Lo, d.CI95.Hi, d.CI95.ExcludesZero())

	_, err = analysis.Paired(base, variant[:5])
	fmt.Println(err)
	// Output:
	// variant - base: -0.222 s, 95% CI [-0.291, -0.152], significant: true
	// analysis: Paired: len(base) = 6, len(variant) = 5: analysis: samples differ in length
}

// Probability that the system stays locked in after the trigger ends:
// 3 of 20 replications did.
func ExampleWilson() {
	iv := analysis.Wilson(3, 20)
	fmt.Printf("locked in: %.2f, 95%% CI [%.3f, %.3f]\n", 3.0/20, iv.Lo, iv.Hi)

	none := analysis.Wilson(0, 20)
	fmt.Printf("never locked in: 95%% CI [%.3f, %.3f]\n", none.Lo, none.Hi)
	// Output:
	// locked in: 0.15, 95% CI [0.052, 0.360]
	// never locked in: 95% CI [0.000, 0.161]
}

func ExampleInterval() {
	iv := analysis.Interval{Lo: -0.4, Hi: 1.2}
	fmt.Println(iv.Contains(0), iv.ExcludesZero(), iv.Width())
	// Output:
	// true false 1.6
}

package health_test

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/policies/health"
)

// The trap from «Устойчивость: circuit breaker, retry, bulkhead,
// backpressure, деградация», section 11: a readiness probe that includes the
// non-critical dependency "recommendations". When recommendations goes down
// at 25 s, the instance turns unready after three failed probes, and so
// does every other instance probing the same dependency.
func Example() {
	probe, err := health.NewReadiness(health.DefaultConfig(), 0)
	if err != nil {
		panic(err)
	}
	checks, err := health.NewChecks("self", "recommendations") // wrong: use "self" only
	if err != nil {
		panic(err)
	}
	for range 6 {
		now, _ := probe.NextProbeAt()
		checks.SetByName("recommendations", now < 25*time.Second)
		if tr, ok := probe.Observe(now, checks.Passed(), 3*time.Millisecond); ok {
			failing, _ := checks.FirstFailing()
			fmt.Printf("%v: %v %v -> %v (failing: %q)\n", tr.At, tr.Kind, tr.From, tr.To, failing)
		}
	}
	// Output:
	// 3ms: readiness unready -> ready (failing: "")
	// 50.003s: readiness ready -> unready (failing: "recommendations")
}

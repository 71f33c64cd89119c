package hedge

import (
	"testing"

	"github.com/ressim/ressim/sim/policies"
)

// BenchmarkDecide plays one hedged call per iteration: start, a due hedge,
// a non-fatal failure that sends the last copy, and a success. It reports
// 0 allocations: the Call and Decision are values.
func BenchmarkDecide(b *testing.B) {
	p := mustNew(b, Config{MaxAttempts: 3, Delay: 10 * ms, InitialRequests: 1, NonFatal: nonFata})
	b.ReportAllocs()
	for b.Loop() {
		d := p.Start(0, Call{}, 0.5)
		d = p.Due(10*ms, d.Next)
		d = p.Outcome(12*ms, d.Next, policies.Error)
		d = p.Outcome(15*ms, d.Next, policies.Success)
		if d.Action != Succeed {
			b.Fatal(d.Action)
		}
	}
}

func BenchmarkOutcome(b *testing.B) {
	p := mustNew(b, DefaultConfig())
	c := p.Start(0, Call{}, 0).Next
	b.ReportAllocs()
	for b.Loop() {
		_ = p.Outcome(5*ms, c, policies.Success)
	}
}

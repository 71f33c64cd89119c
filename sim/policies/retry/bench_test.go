package retry

import (
	"testing"

	"github.com/ressim/ressim/sim/policies"
)

func BenchmarkDecide(b *testing.B) {
	for _, bo := range []Backoff{BackoffFullJitter, BackoffDecorrelatedJitter} {
		b.Run(bo.String(), func(b *testing.B) {
			cfg := DefaultConfig()
			cfg.Backoff = bo
			cfg.AttemptTimeout = 100 * ms
			p := mustNew(b, cfg)
			b.ReportAllocs()
			var c Call
			for i := 0; b.Loop(); i++ {
				d := p.Decide(0, c, policies.Error, 10_000*ms, 0.37)
				if d.Retry {
					c = d.Next
				} else {
					c = Call{}
				}
			}
		})
	}
}

func BenchmarkDecideSuccess(b *testing.B) {
	p := mustNew(b, DefaultConfig())
	b.ReportAllocs()
	for b.Loop() {
		_ = p.Decide(0, Call{}, policies.Success, 0, 0)
	}
}

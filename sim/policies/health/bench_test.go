package health

import (
	"testing"
	"time"
)

// BenchmarkObserve measures one probe result fed to a readiness probe that
// flaps between ready and unready.
func BenchmarkObserve(b *testing.B) {
	p, _ := NewReadiness(DefaultConfig(), 0)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		next, _ := p.NextProbeAt()
		p.Observe(next, i&4 == 0, time.Millisecond)
	}
}

// BenchmarkChecks measures setting one check by name and evaluating the
// conjunction of three.
func BenchmarkChecks(b *testing.B) {
	c, _ := NewChecks("self", "db", "recommendations")
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		c.SetByName("recommendations", i&1 == 0)
		_ = c.Passed()
	}
}

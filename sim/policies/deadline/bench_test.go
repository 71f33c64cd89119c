package deadline

import (
	"testing"
	"time"
)

func BenchmarkSlice(b *testing.B) {
	p, _ := New(DefaultConfig())
	d := At(800 * ms)
	b.ReportAllocs()
	var now time.Duration
	for b.Loop() {
		now = (now + 1) & 0x3fffffff
		p.Slice(d, now, NonCritical)
	}
}

func BenchmarkPropagate(b *testing.B) {
	p, _ := New(DefaultConfig())
	d := At(800 * ms)
	b.ReportAllocs()
	var now time.Duration
	for b.Loop() {
		now = (now + 1) & 0x3fffffff
		p.Propagate(d, now, Critical)
	}
}

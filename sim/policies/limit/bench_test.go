package limit

import (
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

func benchSample(b *testing.B, alg Algorithm) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		rtt := time.Duration(10+i%7) * ms
		alg.OnSample(time.Duration(i)*ms, rtt, 20, i%97 == 0)
	}
}

func BenchmarkAIMDOnSample(b *testing.B) {
	a, _ := NewAIMD(DefaultAIMDConfig())
	benchSample(b, a)
}

func BenchmarkGradient2OnSample(b *testing.B) {
	g, _ := NewGradient2(DefaultGradient2Config())
	benchSample(b, g)
}

func BenchmarkVegasOnSample(b *testing.B) {
	v, _ := NewVegas(DefaultVegasConfig())
	benchSample(b, v)
}

func BenchmarkWindowedVegasOnSample(b *testing.B) {
	v, _ := NewVegas(DefaultVegasConfig())
	w, _ := NewWindowed(DefaultWindowedConfig(), v)
	benchSample(b, w)
}

func BenchmarkLimiterAcquireRelease(b *testing.B) {
	a, _ := NewAIMD(DefaultAIMDConfig())
	lim, _ := NewLimiter(a)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		now := time.Duration(i) * ms
		tok, ok := lim.Acquire(now)
		if ok {
			lim.Release(now+10*ms, tok, policies.Success)
		}
	}
}

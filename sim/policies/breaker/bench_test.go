package breaker

import (
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

func benchAllowRecord(b *testing.B, cfg Config) {
	br, err := New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	outs := [...]policies.Outcome{policies.Success, policies.Success, policies.Success, policies.Error}
	b.ReportAllocs()
	now := time.Duration(0)
	for i := 0; b.Loop(); i++ {
		now += time.Millisecond
		if p, ok := br.Allow(now); ok {
			br.Record(now, p, outs[i&3], 10*time.Millisecond)
		}
	}
}

// BenchmarkAllowRecord measures one Allow plus one Record on a closed
// breaker with a count-based window of 100 calls.
func BenchmarkAllowRecord(b *testing.B) { benchAllowRecord(b, DefaultConfig()) }

// BenchmarkAllowRecordTimeBased is the same with a 100 s time-based window.
func BenchmarkAllowRecordTimeBased(b *testing.B) {
	c := DefaultConfig()
	c.SlidingWindowType = TimeBased
	benchAllowRecord(b, c)
}

// BenchmarkAllowOpen measures a refused Allow on an open breaker.
func BenchmarkAllowOpen(b *testing.B) {
	br, _ := New(DefaultConfig())
	for range 20 {
		p, _ := br.Allow(0)
		br.Record(0, p, policies.Error, 0)
	}
	b.ReportAllocs()
	for b.Loop() {
		br.Allow(time.Second)
	}
}
